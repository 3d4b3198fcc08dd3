package permission

import (
	"path"
	"strings"
)

// A simple command is judged through its views: the words as written,
// and again after each wrapper that runs the rest as a command (sudo,
// env, nohup, timeout, xargs, …), each starting with its program's base
// name (/bin/rm is rm). "sudo -E /usr/bin/rm -rf /x" is seen as
// "sudo -E rm -rf /x" (the sudo rule) and as "rm -rf /x" (the rm rule).

// wrapper describes a program that runs its remaining words as a
// command: its options that take a value, and whether its first
// operand is a value of its own (timeout's duration).
type wrapper struct {
	valued   string // one-letter options that take the next word
	operands int    // words after the options that are not the command
}

var wrappers = map[string]wrapper{
	"sudo":       {valued: "ugpChDRTUrt"},
	"doas":       {valued: "uC"},
	"pkexec":     {},
	"env":        {valued: "uCS"},
	"command":    {},
	"builtin":    {},
	"exec":       {valued: "a"},
	"nohup":      {},
	"time":       {valued: "fo"},
	"nice":       {valued: "n"},
	"ionice":     {valued: "cnp"},
	"timeout":    {valued: "sk", operands: 1},
	"stdbuf":     {valued: "ioe"},
	"xargs":      {valued: "nIPLdEsa"},
	"caffeinate": {valued: "tw"},
}

// keywords are shell words that may stand before a command.
var keywords = map[string]bool{
	"{": true, "}": true, "!": true, "if": true, "then": true, "else": true, "elif": true,
	"do": true, "while": true, "until": true, "fi": true, "done": true,
}

// shells run the argument of -c, or their standard input, as commands.
var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "ash": true, "mksh": true, "csh": true, "tcsh": true,
}

// views returns the command's views, outermost first: each is its
// words from a program on, with that program's base name.
func views(words []string) [][]string {
	var out [][]string
	for {
		words = skipPrefix(words)
		if len(words) == 0 {
			return out
		}
		v := append([]string{programName(words[0])}, words[1:]...)
		out = append(out, v)
		w, ok := wrappers[v[0]]
		if !ok {
			return out
		}
		words = afterWrapper(v, w)
	}
}

// skipPrefix drops keywords and variable assignments (FOO=1) in front.
func skipPrefix(words []string) []string {
	for len(words) > 0 && (keywords[words[0]] || isAssignment(words[0])) {
		words = words[1:]
	}
	return words
}

// afterWrapper returns the words of the command a wrapper runs.
func afterWrapper(v []string, w wrapper) []string {
	i := 1
	for i < len(v) {
		a := v[i]
		switch {
		case a == "--":
			i++
			return skipOperands(v[i:], w.operands)
		case v[0] == "env" && isAssignment(a):
			i++
		case strings.HasPrefix(a, "--"):
			i++
			if !strings.Contains(a, "=") && v[0] == "sudo" && (a == "--user" || a == "--group" || a == "--chdir") {
				i++
			}
		case v[0] == "command" && (a == "-v" || a == "-V"):
			return nil // it only says what the name is
		case strings.HasPrefix(a, "-") && len(a) > 1:
			i++
			// -u root takes a value; -uroot carries it.
			if last := a[len(a)-1:]; len(a) == 2 && strings.Contains(w.valued, last) {
				i++
			}
		default:
			return skipOperands(v[i:], w.operands)
		}
	}
	return nil
}

func skipOperands(v []string, n int) []string {
	if n > len(v) {
		return nil
	}
	return v[n:]
}

// programName is the base name of a program word: /usr/bin/sudo is
// sudo, and so is \sudo (the backslash is gone by now) or sudo.exe.
func programName(w string) string {
	w = path.Base(strings.ReplaceAll(w, `\`, "/"))
	if lw := strings.ToLower(w); strings.HasSuffix(lw, ".exe") {
		w = w[:len(w)-4]
	}
	return w
}

func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i, c := range w[:eq] {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// joinWords writes words back as one line for a rule to match: a word
// with a space (or nothing) in it is quoted, so a quoted argument
// ("push -f" as a commit message) never reads as two words.
func joinWords(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w == "" || strings.ContainsAny(w, " \t\n") {
			b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
			continue
		}
		b.WriteString(w)
	}
	return b.String()
}

// nested returns the command lines a simple command runs as commands of
// their own: the argument of sh -c, eval's words, a here-document read
// by a shell.
func nested(v []string, heredoc string) []string {
	if len(v) == 0 {
		return nil
	}
	switch {
	case v[0] == "eval":
		return []string{strings.Join(v[1:], " ")}
	case shells[v[0]]:
		for i := 1; i < len(v); i++ {
			a := v[i]
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
				if i+1 < len(v) {
					return []string{v[i+1]}
				}
				return nil
			}
			if !strings.HasPrefix(a, "-") {
				return nil // a script file: not read here
			}
		}
		if heredoc != "" {
			return []string{heredoc}
		}
	}
	return nil
}

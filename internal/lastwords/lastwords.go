// Package lastwords says why a program that ended before it did its work
// ended, in its own words: the last lines it printed (on its screen, or on
// its stderr and the stdout lines that were not its protocol), how it
// ended, and what to do. A CLI that rejects a flag (a release that dropped
// one, a value it no longer takes) prints its complaint and exits at once;
// "the program exited with status 2" alone leaves the person to guess.
package lastwords

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

const (
	// Quoted is how many lines an error quotes at most.
	Quoted = 10
	// Kept is how many lines are kept to choose them from: a complaint a
	// program prints above its usage (yargs prints "Unknown arguments: …"
	// and then its options: Qwen Code 0.24's are 149 rows at 120 columns,
	// and lost the complaint with 100 kept) is still among them.
	Kept = 400
	// MaxLine is how many bytes of one line are kept.
	MaxLine = 240
	// complaintsAbove is how many complaint lines printed above the last
	// lines are quoted before them.
	complaintsAbove = 3
)

var (
	// escapeRe is a terminal control sequence: CSI, OSC (to BEL or ST),
	// another string sequence, or a two-byte escape.
	escapeRe = lazyre.New(`\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[PX^_][^\x1b]*(\x1b\\)?|[ -/]*[0-~])`)
	// rejectRe is how command-line parsers say they did not take an
	// argument: commander ("error: unknown option '--x'", "too many
	// arguments"), yargs ("Unknown arguments: x", "Invalid values:"),
	// clap ("error: unexpected argument '--x' found", "invalid value"),
	// argparse ("unrecognized arguments", "invalid choice"), Go's flag
	// and cobra ("flag provided but not defined", "unknown flag"), getopt
	// ("invalid option -- 'x'", "unrecognized option").
	rejectRe = lazyre.New(`(?i)\b(unknown|unrecogni[sz]ed|unexpected|invalid|unsupported|illegal|bad)\s+(option|argument|flag|shorthand flag|value|choice|command|subcommand|parameter|switch)s?\b` +
		`|flag provided but not defined|invalid option\s+--|option requires an argument|requires an argument|not enough (non-option )?arguments|too many arguments` +
		`|missing required (argument|option|flag)|invalid values?:|invalid choice|unknown arguments?:|argument .{1,80} is invalid|is not a valid (option|value|choice)`)
	// errorLineRe is a line that reports an error in its first word.
	errorLineRe = lazyre.New(`(?i)^\W{0,3}(error|fatal|err!|panic)\b`)
	// optionLineRe is a line of a usage text that lists an option.
	optionLineRe = lazyre.New(`^\s+(-\w,?\s+)?--?\w[\w-]*(\s|,|=|\[|<|$)`)
	// usageRe is the heading of a usage text.
	usageRe = lazyre.New(`(?i)^\s*usage:`)
	// loginRe is words about a login, a key or credentials.
	loginRe = lazyre.New(`(?i)\b(log ?in|logged in|sign(ed)? ?in|authenticat\w*|auth|credentials?|api[ _-]?keys?|\w+_API_KEY|\w+_TOKEN|tokens?|unauthori[sz]ed|oauth)\b`)
)

// Clean is a line as a person reads it on a terminal: escape sequences
// and control characters out (a tab is a blank), what a carriage return
// wrote over gone, trailing blanks trimmed, cut to MaxLine bytes.
func Clean(line string) string {
	line = strings.TrimRight(line, "\r\n")
	if i := strings.LastIndexByte(line, '\r'); i >= 0 {
		line = line[i+1:] // a progress line redrawn in place: its last state
	}
	if strings.IndexByte(line, 0x1b) >= 0 {
		line = escapeRe.ReplaceAllString(line, "")
	}
	line = strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return -1
		}
		return r
	}, strings.ToValidUTF8(line, "?"))
	return cut(strings.TrimRight(line, " "), MaxLine)
}

// cut is s in at most n bytes, on a rune boundary, marked with "…" where
// it was cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// NonBlank is the lines of texts (each split at its newlines) that hold
// more than blanks, cleaned (Clean), in order.
func NonBlank(texts ...string) []string {
	var out []string
	for _, t := range texts {
		for _, l := range strings.Split(t, "\n") {
			if l = Clean(l); strings.TrimSpace(l) != "" {
				out = append(out, l)
			}
		}
	}
	return out
}

// Pick chooses the lines an error quotes from lines (oldest first): the
// last Quoted, and where a complaint was printed above them (an error or
// a rejected argument, then a usage text), that complaint first and "…"
// for what lies between.
func Pick(lines []string) []string {
	if len(lines) <= Quoted {
		return lines
	}
	tail := lines[len(lines)-Quoted:]
	for _, l := range tail {
		if complaint(l) {
			return tail
		}
	}
	var above []string
	for _, l := range lines[:len(lines)-Quoted] {
		if complaint(l) {
			if above = append(above, l); len(above) == complaintsAbove {
				break
			}
		}
	}
	if len(above) == 0 {
		return tail
	}
	rest := Quoted - len(above) - 1
	return append(append(above, "…"), lines[len(lines)-rest:]...)
}

// complaint reports a line in which the program says what went wrong:
// an error, a rejected argument (not a usage text's list of options).
func complaint(l string) bool {
	return !optionLineRe.MatchString(l) && (errorLineRe.MatchString(l) || rejectRe.MatchString(l))
}

// Rejected reports words that say the program did not take its command
// line: an unknown option or argument, a value it does not know, or its
// usage printed (opencode and Kilo print only that).
func Rejected(lines []string) bool {
	options := 0
	for _, l := range lines {
		switch {
		case optionLineRe.MatchString(l):
			options++
		case rejectRe.MatchString(l), usageRe.MatchString(l):
			return true
		}
	}
	return options >= 3
}

// AboutLogin reports words that speak of a login, a key or credentials.
func AboutLogin(lines []string) bool {
	for _, l := range lines {
		if !optionLineRe.MatchString(l) && loginRe.MatchString(l) {
			return true
		}
	}
	return false
}

// CredentialsFit reports whether a note on a missing login fits the
// words: the program said nothing, or spoke of a login; never when it
// rejected its command line.
func CredentialsFit(lines []string) bool {
	return len(lines) == 0 || !Rejected(lines) && AboutLogin(lines)
}

// Failure is a program that ended before it did its work.
type Failure struct {
	// Program is its name ("claude"); "" is "the program".
	Program string
	// Ended is how it ended: "exited with status 2", "was killed by SIGSEGV".
	Ended string
	// Where is where its words were: "on its screen", "on stderr".
	Where string
	// Lines are the lines it printed, oldest first (NonBlank); the error
	// quotes some of them (Pick).
	Lines []string
}

// Text is the error: how the program ended, its words, and what to do.
// note is what else yume-cli knows to be missing (a login, in a first
// run); it is said where the words leave room for it (CredentialsFit),
// and stands for the advice when the program said nothing.
func (f Failure) Text(note string) string {
	name := f.Program
	if name == "" {
		name = "the program"
	}
	var b strings.Builder
	b.WriteString(name + " " + f.Ended)
	if len(f.Lines) == 0 {
		b.WriteString(" and printed nothing.")
		if note != "" {
			b.WriteString(" " + note)
		} else {
			b.WriteString(" Run the same command in a terminal to see why, or run `yume-cli doctor`.")
		}
		return b.String()
	}
	where := f.Where
	if where != "" {
		where = " " + where
	}
	fmt.Fprintf(&b, ". Its last words%s:\n\n", where)
	for _, l := range Pick(f.Lines) {
		b.WriteString("    " + l + "\n")
	}
	b.WriteString("\n")
	switch {
	case Rejected(f.Lines):
		fmt.Fprintf(&b, "%s rejected its command line (an option or a value it does not take, as a release that dropped a flag does): "+
			"update %s, or correct the command after `--` if you gave one; `yume-cli doctor` shows its version and the releases yume-cli was verified on.",
			capital(name), it(name))
	case note != "" && CredentialsFit(f.Lines):
		b.WriteString(note)
	case AboutLogin(f.Lines):
		fmt.Fprintf(&b, "Log in to %s (run it in a terminal) or set its key, then try again.", it(name))
	default:
		b.WriteString("Run the same command in a terminal to see more, or run `yume-cli doctor`.")
	}
	return b.String()
}

// capital is s with its first letter in upper case ("The program").
func capital(s string) string {
	if s == "the program" {
		return "The program"
	}
	return s
}

// it is how the advice names the program again.
func it(name string) string {
	if name == "the program" {
		return "it"
	}
	return name
}

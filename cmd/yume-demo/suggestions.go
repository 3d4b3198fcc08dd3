package main

import (
	"strings"
)

// Targets, as `gh copilot suggest -t` spells them.
const (
	targetShell = "shell"
	targetGh    = "gh"
	targetGit   = "git"
)

// kindChoices are the options of "What kind of command can I help you with?",
// in gh-copilot's order, and the target each one stands for.
var kindChoices = []struct{ label, target string }{
	{"generic shell command", targetShell},
	{"gh command", targetGh},
	{"git command", targetGit},
}

func validTarget(t string) bool {
	for _, k := range kindChoices {
		if k.target == t {
			return true
		}
	}
	return false
}

// entry is one row of the offline "model": when a prompt contains any of the
// keywords (lower case), the command is suggested and explained by bullets.
type entry struct {
	keywords []string
	command  string
	bullets  []string
}

// table holds the rows per target, most specific first: the first row with a
// matching keyword wins, so "largest files" must come before "list files".
var table = map[string][]entry{
	targetShell: {
		{[]string{"largest files", "larger than", "big files", "100mb"}, "find . -type f -size +100M", []string{
			"find is used to search for files in a directory hierarchy.",
			"  . specifies the current directory as the starting point.",
			"  -type f restricts the search to regular files.",
			"  -size +100M matches files larger than 100 megabytes.",
		}},
		{[]string{"list files", "list all files", "show files"}, "ls -la", []string{
			"ls lists the contents of a directory.",
			"  -l uses the long listing format (permissions, owner, size, date).",
			"  -a includes entries whose names begin with a dot.",
		}},
		{[]string{"disk"}, "df -h", []string{
			"df reports file system disk space usage.",
			"  -h prints sizes in human readable units (K, M, G).",
		}},
		{[]string{"count lines"}, "wc -l *", []string{
			"wc prints newline, word and byte counts for files.",
			"  -l prints only the newline counts.",
			"  * expands to every file in the current directory.",
		}},
		{[]string{"hello"}, `echo "Hello from yume-demo"`, []string{
			"echo writes its arguments to standard output.",
			`  "Hello from yume-demo" is the text to print.`,
		}},
	},
	targetGh: {
		{[]string{"pull request", "pull requests", "pr", "prs"}, "gh pr list", []string{
			"gh pr list lists pull requests in the current repository.",
		}},
		{[]string{"issue", "issues"}, "gh issue list", []string{
			"gh issue list lists issues in the current repository.",
		}},
	},
	targetGit: {
		{[]string{"undo", "revert the last commit"}, "git reset --soft HEAD~1", []string{
			"git reset resets the current HEAD to the specified state.",
			"  --soft keeps the changes of the undone commit staged.",
			"  HEAD~1 refers to the commit before the current one.",
		}},
		{[]string{"branch"}, "git branch", []string{
			"git branch lists the local branches; the current one is marked with *.",
		}},
		{[]string{"status", "changed"}, "git status", []string{
			"git status shows the working tree status.",
		}},
	},
}

// Suggest returns the offline suggestion for prompt: the first table row of
// target whose keyword the prompt contains, else an echo of the prompt.
func Suggest(target, prompt string) string {
	if e, ok := lookup(target, prompt); ok {
		return e.command
	}
	return `echo ` + doubleQuote(prompt)
}

func lookup(target, text string) (entry, bool) {
	text = strings.ToLower(text)
	for _, e := range table[target] {
		for _, k := range e.keywords {
			if containsWord(text, k) {
				return e, true
			}
		}
	}
	return entry{}, false
}

// containsWord reports whether k occurs in text with no letter on either
// side, so the keyword "pr" does not fire inside "print".
func containsWord(text, k string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], k)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(k)
		if (i == 0 || !isLetter(text[i-1])) && (end == len(text) || !isLetter(text[end])) {
			return true
		}
		from = i + 1
	}
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// doubleQuote quotes s for sh so that echo prints it verbatim: inside double
// quotes only \, ", $ and ` are special.
func doubleQuote(s string) string {
	s = strings.Join(strings.Fields(s), " ") // no newlines in a one-line command
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`")
	return `"` + r.Replace(s) + `"`
}

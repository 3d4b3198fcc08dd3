package main

import (
	"strings"
)

// reviseRule changes a command when the revision request contains one of
// its words. Rules are tried in order after the keyword table.
type reviseRule struct {
	words []string
	apply func(cmd string) string
}

var reviseRules = []reviseRule{
	{[]string{"sudo", "root", "admin"}, func(c string) string { return "sudo " + c }},
	{[]string{"sort", "sorted"}, func(c string) string { return c + " | sort" }},
	{[]string{"count", "how many"}, func(c string) string { return c + " | wc -l" }},
	{[]string{"first", "head", "top", "fewer", "shorter"}, func(c string) string { return c + " | head -n 10" }},
}

// Revise returns the command that answers "How should this be revised?":
// a revision naming a table keyword switches to that row's command, one of
// the reviseRules edits the command, and anything else is kept, visibly, as
// a trailing shell comment so that the command still does the same thing.
func Revise(target, cmd, revision string) string {
	revision = strings.Join(strings.Fields(revision), " ")
	if revision == "" {
		return cmd
	}
	if e, ok := lookup(target, revision); ok {
		return e.command
	}
	lower := strings.ToLower(revision)
	for _, r := range reviseRules {
		for _, w := range r.words {
			if containsWord(lower, w) {
				return r.apply(cmd)
			}
		}
	}
	return cmd + " # " + revision
}

// programs explains the programs a fallback explanation may meet.
var programs = map[string]string{
	"cat":  "cat prints the contents of files.",
	"df":   "df reports file system disk space usage.",
	"echo": "echo writes its arguments to standard output.",
	"find": "find searches for files in a directory hierarchy.",
	"gh":   "gh is the GitHub CLI.",
	"git":  "git is the Git version control system.",
	"grep": "grep prints lines that match a pattern.",
	"head": "head prints the first lines of its input.",
	"ls":   "ls lists the contents of a directory.",
	"sort": "sort sorts lines of text.",
	"sudo": "sudo runs the rest of the command as the superuser.",
	"wc":   "wc prints newline, word and byte counts.",
}

// Explain returns the bullet lines printed under "Explanation:", each
// already indented and prefixed with "• " as gh-copilot prints them.
func Explain(target, cmd string) []string {
	var lines []string
	if e, ok := lookupCommand(target, cmd); ok {
		lines = e.bullets
	} else {
		lines = explainGeneric(cmd)
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		depth := (len(l) - len(strings.TrimLeft(l, " "))) / 2
		out = append(out, strings.Repeat("  ", depth+1)+"• "+strings.TrimLeft(l, " "))
	}
	return out
}

func lookupCommand(target, cmd string) (entry, bool) {
	for _, e := range table[target] {
		if e.command == cmd {
			return e, true
		}
	}
	return entry{}, false
}

// explainGeneric describes a command it has no bullets for: one bullet per
// pipeline stage, a sub-bullet for a trailing comment.
func explainGeneric(cmd string) []string {
	var lines []string
	body, comment, hasComment := strings.Cut(cmd, " # ")
	for _, stage := range strings.Split(body, "|") {
		stage = strings.TrimSpace(stage)
		fields := strings.Fields(stage)
		if len(fields) == 0 {
			continue
		}
		if d, ok := programs[fields[0]]; ok {
			lines = append(lines, d)
		} else {
			lines = append(lines, fields[0]+" is the program being run.")
		}
		if len(fields) > 1 {
			lines = append(lines, "  "+strings.Join(fields[1:], " ")+" are the arguments passed to "+fields[0]+".")
		}
	}
	if len(lines) > 1 && strings.Contains(body, "|") {
		lines = append(lines, "The | characters pipe the output of each command into the next.")
	}
	if hasComment {
		lines = append(lines, "# "+comment+" is a comment; the shell ignores it.")
	}
	return lines
}

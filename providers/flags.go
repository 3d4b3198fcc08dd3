package providers

import (
	"crypto/rand"
	"fmt"
	"regexp"
	"strings"
)

// Flag detection from a program's --help, so a release that renames a
// flag's values is read, not assumed.

var choicesRE = regexp.MustCompile(`(?s)^[^\n]*?\(choices: ([^)]*)\)|^[^\n]*?\[choices: ([^\]]*)\]`)

// flagChoices lists the values --help gives for flag, from commander's
// `(choices: "a", "b")` or yargs' `[choices: "a", "b"]`; nil when help
// does not list them.
func flagChoices(help, flag string) []string {
	i := flagIndex(help, flag)
	if i < 0 {
		return nil
	}
	// The choices may wrap onto the next lines of the option's text.
	rest := help[i:]
	if end := strings.Index(rest, "\n  -"); end > 0 {
		rest = rest[:end]
	}
	rest = strings.Join(strings.Fields(rest), " ")
	m := choicesRE.FindStringSubmatch(rest)
	if m == nil {
		return nil
	}
	list := m[1] + m[2]
	var out []string
	for _, q := range strings.Split(list, ",") {
		if v := strings.Trim(strings.TrimSpace(q), `"'`); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// hasFlag reports whether help documents flag.
func hasFlag(help, flag string) bool { return flagIndex(help, flag) >= 0 }

// flagIndex is where flag is documented in help, or -1: the flag as a
// whole word at an option's start.
func flagIndex(help, flag string) int {
	re := regexp.MustCompile(`(?m)^\s*(?:-\w, )?(?:--[\w-]+, )?` + regexp.QuoteMeta(flag) + `\b`)
	loc := re.FindStringIndex(help)
	if loc == nil {
		return -1
	}
	return loc[0]
}

// firstOf is the first of want that have lists.
func firstOf(have []string, want ...string) string {
	for _, w := range want {
		for _, h := range have {
			if h == w {
				return w
			}
		}
	}
	return ""
}

// newUUID makes a random (version 4) UUID, the session id the programs
// that take one require.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand does not fail on supported platforms.
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

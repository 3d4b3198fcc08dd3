package providers

import (
	"crypto/rand"
	"fmt"
	"regexp"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// Flag detection from a program's --help, so a release that renames a
// flag's values is read, not assumed.

// The ways help texts list a flag's values: commander's (choices: "a",
// "b"), yargs' [choices: "a", "b"], clap's [possible values: a, b], and
// clap's long form "Possible values: - a: … - b: …".
var (
	choicesRE  = lazyre.New(`\((?:choices|possible values): ([^)]*)\)|\[(?:choices|possible values): ([^\]]*)\]`)
	possibleRE = lazyre.New(`Possible values:(.*)`)
	itemRE     = lazyre.New(`(?:^| )- ([\w-]+):`)
)

// flagChoices lists the values --help gives for flag; nil when help does
// not list them.
func flagChoices(help, flag string) []string {
	i := flagIndex(help, flag)
	if i < 0 {
		return nil
	}
	// The option's text runs to the next option; choices may wrap.
	rest := help[i+len(flag):]
	if end := nextOption.FindStringIndex(rest); end != nil {
		rest = rest[:end[0]]
	}
	rest = strings.Join(strings.Fields(rest), " ")
	var list []string
	if m := choicesRE.FindStringSubmatch(rest); m != nil {
		list = strings.Split(m[1]+m[2], ",")
	} else if m := possibleRE.FindStringSubmatch(rest); m != nil {
		for _, it := range itemRE.FindAllStringSubmatch(m[1], -1) {
			list = append(list, it[1])
		}
	}
	var out []string
	for _, q := range list {
		if v := strings.Trim(strings.TrimSpace(q), `"'`); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// nextOption finds the start of the next option in a help text.
var nextOption = lazyre.New(`\n\s*(?:-\w, )?--[\w-]`)

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

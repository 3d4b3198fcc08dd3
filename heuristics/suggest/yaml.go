// Writing the profile file: a header saying where it came from and how to
// check it, then the rules as YAML.

package suggest

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"

	"github.com/kballard/go-shellquote"
)

// YAML is the profile file, with a header saying where it came from and
// that it must be reviewed.
func (p *Profile) YAML() []byte {
	var b bytes.Buffer
	file := orDefault(p.file, "the recording")
	out := orDefault(p.output, p.Name+".yaml")
	rec := orDefault(p.file, "FILE.cast")
	fmt.Fprintf(&b, "# Suggested by `yume-cli rules suggest` from %s, a recording of\n", comment(file))
	fmt.Fprintf(&b, "#   %s\n", comment(orDefault(p.CommandLine, "(no command recorded)")))
	b.WriteString(`#
# REVIEW IT BEFORE USE. It was generalised from one recording: each rule
# matches a question the person answered there (numbers became \d+, file
# and quoted names .+?, a default in parentheses any default), and its
# approve keys are what the person typed to say yes, its deny keys what they
# typed to say no or the opposite answer (Ctrl-C where there is none).
# Check the matches against other runs of the program, and the keys.
#
`)
	fmt.Fprintf(&b, "#   yume-cli rules check %s\n", comment(shellquote.Join(out)))
	fmt.Fprintf(&b, "#   yume-cli replay %s --provider generic --rules %s --approve %s\n",
		comment(shellquote.Join(rec)), comment(shellquote.Join(out)), p.ApproveFlag())
	for _, a := range p.Answers {
		if a.Skipped != "" {
			fmt.Fprintf(&b, "#\n# No rule for the answer at %.2fs (%s): %s\n", a.At.Seconds(), comment(quoteKeys(a.Keys)), comment(a.Skipped))
		}
	}
	fmt.Fprintf(&b, "name: %s\n", yamlString(p.Name))
	fmt.Fprintf(&b, "description: %s\n", yamlString(p.Description))
	b.WriteString("command: [")
	for i, a := range p.Command {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(yamlString(a))
	}
	b.WriteString("]\n")
	b.WriteString("quiet_ms: 40\n")
	if len(p.Rules) == 0 {
		b.WriteString("rules: []\n")
		return b.Bytes()
	}
	b.WriteString("rules:\n")
	for i, r := range p.Rules {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "  # %s\n", comment(n))
		}
		fmt.Fprintf(&b, "  - name: %s\n", yamlString(r.Name))
		fmt.Fprintf(&b, "    match: %s\n", yamlString(r.Match))
		fmt.Fprintf(&b, "    kind: %s\n", r.Kind)
		if r.CursorEnd {
			b.WriteString("    cursor: end\n")
		}
		fmt.Fprintf(&b, "    approve: %s\n", yamlString(r.Approve))
		if r.Deny != "" {
			fmt.Fprintf(&b, "    deny: %s\n", yamlString(r.Deny))
		}
	}
	return b.Bytes()
}

// quoteKeys shows keys in a comment: 'y<Enter>'.
func quoteKeys(k string) string { return "'" + k + "'" }

// yamlString is s as a single-quoted YAML scalar.
func yamlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// comment keeps a comment on one line.
func comment(s string) string {
	return strings.Map(func(c rune) rune {
		if unicode.IsControl(c) {
			return ' '
		}
		return c
	}, s)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

package heuristics

import (
	"strings"
	"testing"
)

// TestWhyNot: a pattern that finds nothing says which of its parts failed
// and where the parts before it matched, as expect's exp_internal does.
func TestWhyNot(t *testing.T) {
	screen := "$ rm -i notes.txt\nrm: remove regular file 'notes.txt'? "
	for _, c := range []struct {
		name, match string
		part        string // the part that fails
		row         int    // where the parts before it matched (-1: nowhere)
		matched     string
	}{
		{"a broken word", `(?m)^(?P<prompt>rm: remove .+\? \[y/N\])$`, `\[y/N\]`, 1, "rm: remove regular file 'notes.txt'?"},
		{"a wrong start", `(?m)^cp: (?P<prompt>overwrite .+\?)$`, "cp: ", -1, ""},
		{"a later anchor", `(?m)^rm: remove (?P<prompt>.+\?) ok$`, " ok", 1, "rm: remove regular file 'notes.txt'?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParseProfile("t.yaml", []byte("name: t\ndescription: t\nrules:\n  - name: r\n    match: '"+strings.ReplaceAll(c.match, "'", "''")+"'\n    kind: confirm\n    approve: 'y<Enter>'\n    deny: 'n<Enter>'\n"))
			if err != nil {
				t.Fatal(err)
			}
			m := WhyNot(screenText(80, 6, screen), p.Rules[0])
			if m == nil {
				t.Fatal("no miss: the pattern matched")
			}
			if !strings.Contains(m.Part, c.part) && m.Part != c.part {
				t.Errorf("part %q, want %q (%s)", m.Part, c.part, m)
			}
			switch {
			case c.row < 0 && len(m.Near) != 0:
				t.Errorf("near %+v, want none", m.Near)
			case c.row >= 0 && (len(m.Near) == 0 || m.Near[0].Row != c.row || m.Near[0].Matched != c.matched):
				t.Errorf("near %+v, want row %d matched %q", m.Near, c.row, c.matched)
			}
			t.Log(m)
		})
	}
}

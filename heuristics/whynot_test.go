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

// TestNearest: of the rules that missed a question, the one whose pattern
// got furthest is named first; rules that never start are last, and
// rules that are not questions are left out.
func TestNearest(t *testing.T) {
	yaml := `name: t
description: t
rules:
  - name: never
    match: '(?m)^cp: (?P<prompt>overwrite .+\?)$'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
  - name: done
    match: '(?m)^rm: remove nothing$'
    kind: done
  - name: close
    match: '(?m)^rm: remove (?P<prompt>.+\?) \[y/N\]$'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
`
	p, got, names := nearestOn(t, yaml, "$ rm -i notes.txt\nrm: remove regular file 'notes.txt'? ", 5)
	if strings.Join(names, ",") != "close,never" {
		t.Fatalf("nearest %v, want close,never", names)
	}
	if n := got[0].Miss.Near; len(n) == 0 || n[0].Row != 1 {
		t.Errorf("close's nearest row %+v, want row 1", n)
	}
	if one := Nearest(screenText(80, 6, "rm: remove x? "), p, 1); len(one) != 1 {
		t.Errorf("Nearest(…, 1) gave %d rules", len(one))
	}
}

// TestNearestWeighsWords: a rule whose wildcards cover a whole row but
// none of whose words matched (xargs -p's "…?..." is any line ending in
// "?...") is not nearer than the rule whose words matched up to the part
// that changed: the one to fix comes first.
func TestNearestWeighsWords(t *testing.T) {
	yaml := `name: t
description: t
rules:
  - name: catch-all
    match: '(?m)^(?P<prompt>\S.*\?\.\.\.)$'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
  - name: rm-remove
    match: '(?m)^rm: remove (?P<prompt>.+\?) \[y/N\]\s*$'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
`
	if _, _, names := nearestOn(t, yaml, "$ rm -i notes.txt\nrm: remove regular file 'notes.txt'? ", 2); len(names) == 0 || names[0] != "rm-remove" {
		t.Fatalf("nearest %v, want rm-remove first", names)
	}
}

// nearestOn parses a profile and names the n rules Nearest finds on a
// screen showing text.
func nearestOn(t *testing.T, yaml, text string, n int) (*Profile, []RuleMiss, []string) {
	t.Helper()
	p, err := ParseProfile("t.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	got := Nearest(screenText(80, 6, text), p, n)
	var names []string
	for _, rm := range got {
		names = append(names, rm.Rule.Name)
	}
	return p, got, names
}

package heuristics

import "testing"

// TestEngineAsks: Asks says whether the first rule to fire on a settled
// screen would ask the GUI (a suggestion before a question is read on),
// and remembers nothing: the question still fires after it, and one that
// fired is not asked about again.
func TestEngineAsks(t *testing.T) {
	prof := mustProfile(t, `
name: test
rules:
  - name: cmd
    match: '(?m)^Command: (?P<command>.+)$'
    kind: suggestion
  - name: note
    match: '(?m)^NOTE (?P<text>.+)$'
    kind: text
  - name: ask
    match: '(?m)^(?P<prompt>Run it\?) \[y/n\]$'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
  - name: menu
    match: '(?m)^(?P<prompt>Pick one:)$'
    kind: menu
    approve: '<Enter>'
    deny: '<Esc>'
`)
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"a question", "Run it? [y/n]", true},
		{"a menu", "Pick one:\n> 1. Yes", true},
		{"a suggestion, then a question", "Command: ls\nRun it? [y/n]", true},
		{"a text rule first", "NOTE busy\nRun it? [y/n]", false},
		{"nothing", "working…", false},
	} {
		e := NewEngine(prof)
		v := screenOf(40, 6, c.text)
		if got := e.Asks(v); got != c.want {
			t.Errorf("%s: Asks = %v, want %v", c.name, got, c.want)
		}
		if !c.want || c.name == "a suggestion, then a question" {
			continue
		}
		if d, _ := e.Evaluate(v, true); d == nil || !d.Kind.asks() {
			t.Errorf("%s: after Asks, Evaluate fired %v; want the question", c.name, d)
		}
		if e.Asks(v) {
			t.Errorf("%s: Asks after the question fired: it would not fire again", c.name)
		}
	}
}

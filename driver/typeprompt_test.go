//go:build unix

package driver_test

import (
	"testing"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

// TestDriveTypesAPromptNotGiven: a program started without its prompt
// (Config.TypePrompt: opencode's TUI resuming a session ignores --prompt)
// gets it typed at its ready input box, once, and the turn is its.
func TestDriveTypesAPromptNotGiven(t *testing.T) {
	prof, err := heuristics.ParseProfile("box.yaml", []byte(`name: box
description: an input box
ready: '(?m)^READY>$'
rules:
  - name: echo
    match: '(?m)^(?P<text>(?:got|EARLY):.*)$'
    kind: text
`))
	if err != nil {
		t.Fatal(err)
	}
	r := driveWith(t, t.TempDir(), prof, permission.Default, nil, nil, nil, func(c *driver.Config) {
		c.Prompt, c.TypePrompt = "hello there", true
	}, "bash", "--norc", "-c", fakeInputBox)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.result(t).str("result"); got != "got:^[[200~hello there^[[201~" {
		t.Errorf("the program received %q, want the prompt as one bracketed paste after READY>", got)
	}
	if !contains(r.keys, `user prompt "\x1b[200~hello there\x1b[201~"`) || !contains(r.keys, `submit prompt "\r"`) {
		t.Errorf("keys = %q, want the prompt as a bracketed paste, then Enter", r.keys)
	}
}

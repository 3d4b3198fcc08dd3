//go:build unix

package driver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

// fakeAgent draws DIALOG (printf format), reads one line (the keys that
// answer it), says what it got, and idles until Ctrl-C twice. Its profile
// knows its end of turn, not its dialogs.
const fakeAgent = `trap 'n=$((n+1)); [ "$n" -ge 2 ] && exit 0' INT
n=0
printf '\033[?1049h\033[H\033[2J* Asked.\n\n'
printf "$DIALOG"
IFS= read -r a
printf '\033[H\033[2J'
if [ -z "$a" ]; then printf '* Finished: allowed.\n\nIDLE\n'; else printf '* Finished: refused.\n\nIDLE\n'; fi
while :; do sleep 0.05; done
`

const fakeAgentProfile = `name: fakeagent
description: an agent whose dialogs no rule knows
command: [fakeagent, '{prompt}']
quit: '<C-c>'
rules:
  - name: done
    match: '(?m)^\* (?P<text>Finished.*)\n\nIDLE$'
    kind: done
`

// TestDriveAsksADialogNoRuleKnows: a dialog no rule of the profile knows
// reaches the GUI as what it draws (a command, a file, or its question),
// never as the program's command line; approving picks its allow-once
// option and denying its reject option.
func TestDriveAsksADialogNoRuleKnows(t *testing.T) {
	prof, err := heuristics.ParseProfile("fakeagent.yaml", []byte(fakeAgentProfile))
	if err != nil {
		t.Fatal(err)
	}
	const boxed = `╭──────────────────────────────────────────╮\n` +
		`│ ⚠ WARNING: Untrusted Command Flags       │\n` +
		`│ ╭──────────────────────────────────────╮ │\n` +
		`│ │ grep -n alpha made.txt               │ │\n` +
		`│ ╰──────────────────────────────────────╯ │\n` +
		`│ Allow execution of [Shell]?              │\n` +
		`│ ● 1. Allow once                          │\n` +
		`│   2. No, suggest changes                 │\n` +
		`╰──────────────────────────────────────────╯\n`
	const file = `──────────────────────────────────────────\n Create file\n notes.md\n` +
		`╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌\n  1 # Notes\n  2 alpha\n╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌\n` +
		` Do you want to create notes.md?\n \033[1;34m❯ 1. Yes\033[0m\n   2. Yes, allow all edits during this session\n   3. No\n`
	const plain = ` Do you want to enable the thing?\n \033[7m1. Yes\033[0m\n 2. No\n`
	tests := []struct {
		name, dialog, tool, key, value string
	}{
		{"command box", boxed, "Bash", "command", "grep -n alpha made.txt"},
		{"file", file, "Write", "file_path", "notes.md"},
		{"question only", plain, "AskUserQuestion", "", ""},
	}
	for _, tt := range tests {
		for _, approve := range []bool{true, false} {
			t.Run(tt.name+map[bool]string{true: "/approve", false: "/deny"}[approve], func(t *testing.T) {
				r := driveProfile(t, t.TempDir(), prof, permission.Default, func(int, toolUse) bool { return approve }, nil, nil,
					"env", "DIALOG="+tt.dialog, "sh", "-c", fakeAgent)
				if r.err != nil {
					t.Fatal(r.err)
				}
				if len(r.uses) != 1 || r.uses[0].Name != tt.tool {
					t.Fatalf("tool_uses = %+v, want one %s", r.uses, tt.tool)
				}
				in := r.uses[0].Input
				if tt.key != "" && in[tt.key] != tt.value {
					t.Errorf("%s = %v, want %q", tt.key, in[tt.key], tt.value)
				}
				if tt.tool == "Write" && in["content"] != "# Notes\nalpha\n" {
					t.Errorf("content = %q", in["content"])
				}
				for k, v := range in {
					if s, ok := v.(string); ok && strings.Contains(s, "sh -c") {
						t.Errorf("%s carries the program's command line: %q", k, s)
					}
				}
				want, text := `approve "\r"`, "Finished: allowed."
				if !approve {
					want, text = `deny "\x1b[B\r"`, "Finished: refused."
					if tt.tool == "Write" {
						want = `deny "\x1b[B\x1b[B\r"`
					}
				}
				if len(r.keys) == 0 || r.keys[0] != want {
					t.Errorf("keys = %q, want %s first", r.keys, want)
				}
				if res := r.result(t); res.str("result") != text {
					t.Errorf("result = %v, want %q", res, text)
				}
			})
		}
	}
}

// TestDriveEndsOnAScreenNothingExplains: mid-turn, a TUI sits on a screen
// that is no question anyone can answer and shows no work in progress:
// the turn ends after the idle timeout with an error that names the
// profile and carries the screen, not at the turn timeout.
func TestDriveEndsOnAScreenNothingExplains(t *testing.T) {
	prof, err := heuristics.ParseProfile("fakeagent.yaml", []byte(fakeAgentProfile))
	if err != nil {
		t.Fatal(err)
	}
	const menu = ` Pick a model\n \033[7m1. Try the new model\033[0m\n 2. Keep the old one\n`
	start := time.Now()
	r := driveWith(t, t.TempDir(), prof, permission.Default, approveAll, nil, nil, func(c *driver.Config) {
		c.IdleTimeout = 700 * time.Millisecond
	}, "env", "DIALOG="+menu, "sh", "-c", fakeAgent)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %v", took)
	}
	if len(r.uses) != 0 {
		t.Errorf("tool_uses = %+v, want none: nothing on screen allows once", r.uses)
	}
	res := r.result(t)
	msg := res.str("result")
	if res["is_error"] != true || !strings.Contains(msg, "fakeagent") || !strings.Contains(msg, "Keep the old one") {
		t.Errorf("result = %v, want an error naming the profile and carrying the screen", res)
	}
}

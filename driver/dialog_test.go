//go:build unix

package driver_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/testchild"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/transcript"
)

// keytuiArgv runs internal/keytui, a dialog read key by key, as this
// test binary's child, with its flags.
func keytuiArgv(flags ...string) []string {
	argv, env := testchild.Command("keytui", flags...)
	return append([]string{"env", env[len(env)-1]}, argv...)
}

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
	boxed := []string{"-layout", "custom", "-pointer", "● ", "-frame", "│ |│|41",
		"-options", "1. Allow once|2. No, suggest changes",
		"-above", "╭──────────────────────────────────────────╮\n" +
			"│ ⚠ WARNING: Untrusted Command Flags       │\n" +
			"│ ╭──────────────────────────────────────╮ │\n" +
			"│ │ grep -n alpha made.txt               │ │\n" +
			"│ ╰──────────────────────────────────────╯ │\n" +
			"│ Allow execution of [Shell]?              │",
		"-below", "╰──────────────────────────────────────────╯"}
	file := []string{"-layout", "custom", "-frame", " ||0", "-options", "1. Yes|2. Yes, allow all edits during this session|3. No",
		"-above", "──────────────────────────────────────────\n Create file\n notes.md\n" +
			"╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌\n  1 # Notes\n  2 alpha\n╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌\n Do you want to create notes.md?"}
	plain := []string{"-layout", "custom", "-style", "reverse", "-pointer", "", "-frame", " ||0", "-options", "1. Yes|2. No",
		"-above", " Do you want to enable the thing?"}
	tests := []struct {
		name             string
		dialog           []string
		tool, key, value string
	}{
		{"command box", boxed, "Bash", "command", "grep -n alpha made.txt"},
		{"file", file, "Write", "file_path", "notes.md"},
		{"question only", plain, "AskUserQuestion", "", ""},
	}
	for _, tt := range tests {
		for _, approve := range []bool{true, false} {
			t.Run(tt.name+map[bool]string{true: "/approve", false: "/deny"}[approve], func(t *testing.T) {
				r := driveProfile(t, t.TempDir(), prof, permission.Default, func(int, toolUse) bool { return approve }, nil, nil,
					keytuiArgv(tt.dialog...)...)
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
	menu := []string{"-layout", "custom", "-style", "reverse", "-pointer", "", "-frame", " ||0",
		"-options", "1. Try the new model|2. Keep the old one", "-above", " Pick a model"}
	start := time.Now()
	r := driveWith(t, t.TempDir(), prof, permission.Default, approveAll, nil, nil, func(c *driver.Config) {
		c.IdleTimeout = 700 * time.Millisecond
	}, keytuiArgv(menu...)...)
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

// loggedOnAnswer is a transcript that logs its call, and the call's
// result, once the GUI has answered the question on screen.
type loggedOnAnswer struct {
	mu       sync.Mutex
	answered bool
	handed   bool
}

func (l *loggedOnAnswer) Path() string { return "the fake agent's log" }

func (l *loggedOnAnswer) answer(int, toolUse) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.answered = true
	return true
}

func (l *loggedOnAnswer) Poll() ([]transcript.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.answered || l.handed {
		return nil, nil
	}
	l.handed = true
	return []transcript.Event{
		{Kind: transcript.ToolCall, ID: "c1", Name: "Bash", Input: map[string]any{"command": "echo made > made.txt"}},
		{Kind: transcript.ToolResult, ID: "c1", Output: "made"},
	}, nil
}

// TestDriveOwnQuestionTakesNoCall: a dialog that names no call (the
// program's own question: Kilo asks "disable Snapshots?" when its start is
// slow) with nothing waiting in the transcript, then a call the transcript
// logs after it was answered: the call is reported as itself, with its
// result, not as the dialog (which hid the turn's command behind the
// dialog's answer: CI, TestLiveAgentsTUI/kilo/two-at-once under load).
func TestDriveOwnQuestionTakesNoCall(t *testing.T) {
	prof, err := heuristics.ParseProfile("fakeagent.yaml", []byte(fakeAgentProfile))
	if err != nil {
		t.Fatal(err)
	}
	own := []string{"-layout", "custom", "-style", "reverse", "-pointer", "", "-frame", " ||0", "-options", "1. Continue with snapshots|2. Disable for this project",
		"-above", " Do you want to disable Snapshots for this repository?"}
	log := &loggedOnAnswer{}
	r := driveWith(t, t.TempDir(), prof, permission.Default, log.answer, nil, nil,
		func(c *driver.Config) { c.Transcript = log }, keytuiArgv(own...)...)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if len(r.uses) != 2 || r.uses[0].Name != "AskUserQuestion" || r.uses[1].Name != "Bash" || r.uses[1].Command != "echo made > made.txt" {
		t.Fatalf("tool_uses = %+v, want the dialog's question, then the logged Bash call", r.uses)
	}
	if res := r.results[r.uses[0].ID]; !strings.Contains(res.str("content"), "Answered: 1. Continue with snapshots") {
		t.Errorf("the question's result %v, want the answer typed", res)
	}
	if res := r.results[r.uses[1].ID]; res.str("content") != "made" {
		t.Errorf("the call's result %v, want its logged output", res)
	}
}

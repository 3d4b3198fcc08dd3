package replay_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
)

// A person's session, written as a script: what the program draws and
// the keys typed, each a little after the last.
type session struct {
	c  *recordings.Cast
	at time.Duration
}

func newSession(command string) *session {
	return &session{c: &recordings.Cast{Header: recordings.Header{Version: 2, Width: 80, Height: 24, Command: command}}, at: 100 * time.Millisecond}
}

func (s *session) out(data string) *session { return s.add(recordings.CodeOutput, data) }

// keys types each key of ks one at a time (an escape sequence is one key).
func (s *session) keys(ks ...string) *session {
	for _, k := range ks {
		s.add(recordings.CodeInput, k)
	}
	return s
}

// typed types each key at a question read as a line, with the terminal's
// echo of it.
func (s *session) typed(ks ...string) *session {
	for _, k := range ks {
		s.add(recordings.CodeInput, k)
		switch k {
		case "\r":
			s.out("\r\n")
		case "\x7f":
			s.out("\b \b")
		case "\x03":
			s.out("^C\r\n")
		default:
			s.out(k)
		}
	}
	return s
}

func (s *session) wait(d time.Duration) *session { s.at += d; return s }

func (s *session) exit(code int) *recordings.Cast {
	s.add(recordings.CodeExit, fmt.Sprint(code))
	return s.c
}

func (s *session) add(code byte, data string) *session {
	s.c.Events = append(s.c.Events, recordings.Event{Time: s.at, Code: code, Data: data})
	s.at += 60 * time.Millisecond
	return s
}

// dialog draws a TUI's three-option question with option hi highlighted.
func dialog(hi int) string {
	opts := []string{"1. Yes", "2. Yes, and don't ask again for ls", "3. No, and tell me what to do (esc)"}
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2JREADY> list the files\r\n\r\n Run this command?\r\n   ls -la\r\n\r\n")
	for i, o := range opts {
		mark := "  "
		if i == hi {
			mark = "❯ "
		}
		b.WriteString(" " + mark + o + "\r\n")
	}
	return b.String()
}

const (
	tuiDone    = "\x1b[H\x1b[2J● Ran ls -la\r\n  └ total 0\r\n    notes.txt\r\n● Those are the files.\r\nREADY> "
	tuiDenied  = "\x1b[H\x1b[2J● Cancelled.\r\nREADY> "
	tuiFolded  = "\x1b[H\x1b[2J● Ran ls -la\r\n  └ total 0\r\n    + 1 lines (ctrl+o to expand)\r\n● Those are the files.\r\nREADY> "
	tuiNotDone = "\x1b[H\x1b[2J● Ran ls -la\r\n  └ total 0\r\n    notes.txt\r\n● Those are the files.\r\n  (a notice no rule knows)\r\nREADY> "
)

// tuiProfile is a profile for the TUI the sessions draw.
func tuiProfile(t *testing.T) *heuristics.Profile {
	t.Helper()
	prof, err := heuristics.ParseProfile("box.yaml", []byte(`name: box
description: a TUI that asks with a dialog
ready: '(?m)^READY>'
quit: '<C-c>'
quit_also: ['<C-d>', '/exit<Enter>']
view_keys: ['<C-o>']
rules:
  - name: run
    match: '(?m)^ (?P<prompt>Run this command\?)\n   (?P<command>.+)\n\n ❯ 1\. Yes$'
    kind: menu
    approve: '<Enter>'
    deny: '<Esc>'
  - name: output
    match: '(?m)^● Ran .*\n(?P<output>  └ .*\n(?:    .*\n)*)'
    kind: result
  - name: done
    match: '(?m)^● (?P<text>(?:Those are the files|Cancelled)\.)\nREADY> *$'
    kind: done
`))
	if err != nil {
		t.Fatal(err)
	}
	return prof
}

// asked is the start of every TUI session: the prompt typed, the dialog.
func asked() *session {
	s := newSession("box").out("READY> ")
	for _, r := range "list the files" {
		s.keys(string(r)).out(string(r))
	}
	return s.keys("\r").out(dialog(0)).wait(time.Second)
}

// TestReplayMeaning: a person's keys are read for what they did, from what
// the screen did next; equivalent keys are no difference, a different
// decision is one.
func TestReplayMeaning(t *testing.T) {
	down, up := "\x1b[B", "\x1b[A"
	gen := func(t *testing.T) *heuristics.Profile {
		p, err := heuristics.LoadProfile("generic")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name    string
		cast    *recordings.Cast
		profile func(*testing.T) *heuristics.Profile
		approve string // "": as recorded; "all" or "none"
		diffs   int    // differences reported
		denied  bool   // the replay's decision
		output  string // in the tool_result
	}{
		{name: "an arrow past the option and back, then Enter: the option the screen highlighted",
			cast: asked().keys(down).out(dialog(1)).keys(down).out(dialog(2)).keys(down).out(dialog(2)).keys(up).out(dialog(1)).keys(up).out(dialog(0)).
				keys("\r").out(tuiDone).wait(time.Second).keys("\x03").exit(0),
			profile: tuiProfile, output: "total 0\nnotes.txt"},
		{name: "a highlight drawn after the keys: the last one drawn before the dialog went",
			cast:    asked().keys(down, down, down).out(dialog(1)).keys("\r").out(dialog(2)).out(tuiDenied).wait(time.Second).keys("\x03").exit(0),
			profile: tuiProfile, denied: true},
		{name: "the No option by its number: the rule's Esc",
			cast:    asked().keys("3").out(tuiDenied).wait(time.Second).keys("\x03").exit(0),
			profile: tuiProfile, denied: true},
		{name: "a Down, then Esc: a denial",
			cast:    asked().keys(down).out(dialog(1)).keys("\x1b").out(tuiDenied).wait(time.Second).keys("\x03").exit(0),
			profile: tuiProfile, denied: true},
		{name: "left with Ctrl-D twice after the turn",
			cast:    asked().keys("\r").out(tuiDone).wait(time.Second).keys("\x04").out("\r\nPress Ctrl-D again").keys("\x04").exit(0),
			profile: tuiProfile, output: "notes.txt"},
		{name: "left with /exit after the turn",
			cast:    asked().keys("\r").out(tuiDone).wait(time.Second).keys("/", "e", "x", "i", "t", "\r").exit(0),
			profile: tuiProfile, output: "notes.txt"},
		{name: "left at the ready box where no done rule saw the end",
			cast:    asked().keys("\r").out(tuiNotDone).wait(time.Second).keys("\x03").out("\r\nPress Ctrl-C again").keys("\x03").exit(0),
			profile: tuiProfile, output: "notes.txt"},
		{name: "folded output, then unfolded with Ctrl-O: the unfolded",
			cast:    asked().keys("\r").out(tuiFolded).wait(time.Second).keys("\x0f").out(tuiDone).wait(time.Second).keys("\x03").exit(0),
			profile: tuiProfile, output: "total 0\nnotes.txt"},
		{name: "folded output only: what was drawn, and that the rest was not",
			cast:    asked().keys("\r").out(tuiFolded).wait(time.Second).keys("\x03").exit(0),
			profile: tuiProfile, output: "total 0\n[yume-cli: the program did not show 1 more lines of this output]"},
		{name: "a number key whose dialog is redrawn before it closes: one question",
			cast:    asked().keys("3").out(dialog(2)).wait(700 * time.Millisecond).out(tuiDenied).wait(time.Second).keys("\x03").exit(0),
			profile: tuiProfile, denied: true},
		{name: "Enter at the empty input box after the turn changes nothing",
			cast:    asked().keys("\r").out(tuiDone).wait(time.Second).keys("\r").wait(time.Second).keys("\x0f").out(tuiDone).wait(time.Second).keys("\x03").exit(0),
			profile: tuiProfile, output: "notes.txt"},
		{name: "a true difference: a third option",
			cast:    asked().keys("2").out(tuiDone).wait(time.Second).keys("\x03").exit(0),
			profile: tuiProfile, diffs: 1},
		{name: "a true difference: approved where the rule denies",
			cast:    asked().keys(down, down).out(dialog(2)).keys("\r").out(tuiDenied).wait(time.Second).keys("\x03").exit(0),
			profile: tuiProfile, approve: "all", diffs: 1},

		{name: "y taken back with Backspace, then n",
			cast:    newSession("ssh-keygen").out("demo_key already exists.\r\nOverwrite (y/n)? ").typed("y", "\x7f", "n", "\r").out("\r\n").exit(1),
			profile: gen, denied: true},
		{name: "Ctrl-C at a y/n question",
			cast:    newSession("gzip notes.txt").out("gzip: notes.txt.gz already exists; do you wish to overwrite (y or n)? ").typed("\x03").exit(130),
			profile: gen, denied: true},
		{name: "Ctrl-D at a prompt, the program ending without a word",
			cast:    newSession("ln -i a b").out("ln: replace 'b'? ").wait(200 * time.Millisecond).keys("\x04").exit(0),
			profile: gen, denied: true},
		{name: "q at git's letters",
			cast:    newSession("git add -p").out("@@ -1 +1 @@\r\n-a\r\n+b\r\n(1/1) Stage this hunk [y,n,q,a,d,e,?]? ").typed("q", "\r").exit(0),
			profile: gen, denied: true},
		{name: "the quit command of a numbered menu",
			cast: newSession("git clean -i").out("Would remove the following item:\r\n  x.log\r\n*** Commands ***\r\n    1: clean                2: filter by pattern    3: select by numbers\r\n    4: ask each             5: quit                 6: help\r\nWhat now> ").
				typed("5", "\r").out("Bye.\r\n").exit(0),
			profile: gen, denied: true},
		{name: "the first command of a numbered menu by its first letter",
			cast: newSession("git clean -i").out("Would remove the following item:\r\n  x.log\r\n*** Commands ***\r\n    1: clean                2: filter by pattern    3: select by numbers\r\n    4: ask each             5: quit                 6: help\r\nWhat now> ").
				typed("c", "l", "\r").out("Removing x.log\r\n").exit(0),
			profile: gen, output: "Removing x.log"},
		{name: "[N]one among the letter words",
			cast:    newSession("unzip notes.zip").out("Archive:  notes.zip\r\nreplace notes.txt? [y]es, [n]o, [A]ll, [N]one, [r]ename: ").typed("N", "\r").exit(0),
			profile: gen, denied: true},
		{name: "a true difference: [r]ename is another answer",
			cast:    newSession("unzip notes.zip").out("Archive:  notes.zip\r\nreplace notes.txt? [y]es, [n]o, [A]ll, [N]one, [r]ename: ").typed("r", "\r").out("new name: ").exit(0),
			profile: gen, diffs: 1},
		{name: "Enter at a shown default",
			cast:    newSession("pip uninstall x").out("Proceed (Y/n)? ").typed("\r").out("\r\n  Successfully uninstalled x\r\n").exit(0),
			profile: gen, output: "Successfully uninstalled x"},
		{name: "a true difference: a value typed into a field",
			cast:    newSession("npm init").out("package name: (demo) ").typed("m", "i", "n", "e", "\r").out("\r\n").exit(0),
			profile: gen, diffs: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, trace bytes.Buffer
			o := replay.Options{Profile: tt.profile(t), Out: emit.NewWriter(&out, emit.Config{Model: "t"}), AsRecorded: tt.approve == "", Trace: &trace}
			if tt.approve != "" {
				o.Answer = func(int, *heuristics.Detection) permission.Answer {
					return permission.Answer{Allow: tt.approve == "all"}
				}
			}
			res := replay.Run(context.Background(), tt.cast, o)
			if res.Err != nil {
				t.Fatalf("replay: %v", res.Err)
			}
			n := len(res.Mismatches)
			if res.Pending != "" {
				n++
			}
			if n != tt.diffs {
				t.Errorf("%d differences (%v, pending %q), want %d\n%s\n%s", n, res.Mismatches, res.Pending, tt.diffs, out.String(), trace.String())
			}
			if tt.approve == "" {
				if denied := strings.Contains(out.String(), "Denied by the user."); denied != tt.denied {
					t.Errorf("denied %v, want %v:\n%s", denied, tt.denied, out.String())
				}
			}
			if n := strings.Count(out.String(), `"type":"tool_use"`); n != 1 {
				t.Errorf("%d tool_uses, want 1 (one question):\n%s\n%s", n, out.String(), trace.String())
			}
			if tt.output != "" && !strings.Contains(out.String(), strings.ReplaceAll(tt.output, "\n", `\n`)) {
				t.Errorf("no tool_result holds %q:\n%s\n%s", tt.output, out.String(), trace.String())
			}
		})
	}
}

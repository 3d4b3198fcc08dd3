package replay_test

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
)

// TestQuestionSettlesSoon: a question whole on screen is asked once the
// screen stays still for 30 ms, not after the profile's whole quiet period
// (100 ms here, as the AI TUIs'); output that changes it restarts the
// wait, so the question asked is the one drawn last; a frame still being
// drawn (a synchronized update) is not asked about; a screen whose first
// rule to fire is not a question waits out the quiet period.
func TestQuestionSettlesSoon(t *testing.T) {
	prof, err := heuristics.ParseProfile("tui.yaml", []byte(`name: tui
description: a TUI's question
quiet_ms: 100
quit: '<C-c>'
rules:
  - name: note
    match: '(?m)^NOTE (?P<text>.+)$'
    kind: text
  - name: run
    match: '(?m)^(?P<prompt>Run (?P<command>.+)\? \(y/n\)) *$'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
`))
	if err != nil {
		t.Fatal(err)
	}
	const shown = 100 * time.Millisecond
	for _, c := range []struct {
		name    string
		frames  []string // each 10 ms after the last, from shown
		command string
		asked   time.Duration // when the question is asked, on the recording's clock
	}{
		{"whole", []string{"\x1b[2J\x1b[HRun ls -la? (y/n) "}, "ls -la", shown + 30*time.Millisecond},
		{"redrawn", []string{"\x1b[2J\x1b[HRun ls? (y/n) ", "\x1b[2J\x1b[HRun ls -la? (y/n) "}, "ls -la", shown + 40*time.Millisecond},
		{"frame open", []string{"\x1b[?2026h\x1b[2J\x1b[HRun ls -la? (y/n) ", "\x1b[?2026l"}, "ls -la", shown + 40*time.Millisecond},
		{"not a question first", []string{"\x1b[2J\x1b[HNOTE working\r\nRun ls -la? (y/n) "}, "ls -la", shown + 100*time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			cast := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 80, Height: 24, Command: "tui"}}
			at := shown
			for _, f := range c.frames {
				cast.Events = append(cast.Events, recordings.Event{Time: at, Code: recordings.CodeOutput, Data: f})
				at += 10 * time.Millisecond
			}
			cast.Events = append(cast.Events,
				recordings.Event{Time: time.Second, Code: recordings.CodeInput, Data: "y\r"},
				recordings.Event{Time: 1100 * time.Millisecond, Code: recordings.CodeOutput, Data: "\r\nran\r\n"},
				recordings.Event{Time: 1200 * time.Millisecond, Code: recordings.CodeExit, Data: "0"})
			var out, trace bytes.Buffer
			r := replay.Run(context.Background(), cast, replay.Options{Profile: prof, Out: emit.NewWriter(&out, emit.Config{}), AsRecorded: true, Trace: &trace})
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			if !strings.Contains(out.String(), `"command":"`+c.command+`"`) {
				t.Errorf("no tool_use for %q:\n%s", c.command, out.String())
			}
			if got := askedAt(t, trace.Bytes()); got != c.asked {
				t.Errorf("asked at %v, want %v; trace:\n%s", got, c.asked, trace.String())
			}
		})
	}
}

// askedAt is when the trace moved to asking or answering question 1.
func askedAt(t *testing.T, trace []byte) time.Duration {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(trace))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e struct {
			T      float64 `json:"t_ms"`
			Event  string  `json:"event"`
			Rule   string  `json:"rule"`
			Fired  bool    `json:"fired"`
			Detail string  `json:"detail"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Event == "rule" && e.Rule == "run" && e.Fired {
			return time.Duration(e.T * float64(time.Millisecond))
		}
	}
	t.Fatal("the question's rule never fired")
	return 0
}

// TestQuestionSettlesOnItsRows: a TUI's spinner ticking above a dialog
// every 10 ms never lets the whole screen settle; the dialog is asked
// about once its own rows held still 30 ms, or, where the profile knows
// how its dialogs end (dialog_end), as soon as the program pauses after
// drawing that end. A dialog drawn in two pieces is asked about once,
// after its second: the first has no end yet.
func TestQuestionSettlesOnItsRows(t *testing.T) {
	const base = `name: tui
description: a TUI's dialog under a spinner
quiet_ms: 100
quit: '<C-c>'
rules:
  - name: run
    match: '(?m)^(?P<prompt>Run (?P<command>.+)\?)\n› 1\. Yes$'
    kind: menu
    approve: '<Enter>'
    deny: '<Esc>'
`
	const ends = "dialog_end: '(?m)\\A.*\\n(?:  .*\\n)*\\n+ Esc to cancel$'\n"
	const shown = 100 * time.Millisecond
	whole := "\x1b[2J\x1b[H⠋ Working 0\r\n\r\nRun ls -la?\r\n› 1. Yes\r\n  2. No\r\n\r\n Esc to cancel"
	half, rest := "\x1b[2J\x1b[H⠋ Working 0\r\n\r\nRun ls -la?\r\n› 1. Yes", "\r\n  2. No\r\n\r\n Esc to cancel"
	for _, c := range []struct {
		name   string
		end    bool
		pieces []string // at shown, then 10 ms apart, between the spinner's frames
		asked  time.Duration
	}{
		{"its rows held still", false, []string{whole}, shown + 30*time.Millisecond},
		{"its end drawn", true, []string{whole}, shown + 2*time.Millisecond},
		{"in pieces, its rows", false, []string{half, rest}, shown + 40*time.Millisecond},
		{"in pieces, its end", true, []string{half, rest}, shown + 12*time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := base
			if c.end {
				text = ends + base
			}
			prof, err := heuristics.ParseProfile("tui.yaml", []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			cast := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 80, Height: 24, Command: "tui"}}
			for i, p := range c.pieces {
				cast.Events = append(cast.Events, recordings.Event{Time: shown + time.Duration(i)*10*time.Millisecond, Code: recordings.CodeOutput, Data: p})
			}
			for i := 1; i < 50; i++ { // the spinner, 5 ms after each 10 ms
				at := shown + time.Duration(i)*10*time.Millisecond - 5*time.Millisecond
				cast.Events = append(cast.Events, recordings.Event{Time: at, Code: recordings.CodeOutput, Data: "\x1b7\x1b[H⠙ Working " + strconv.Itoa(i) + "\x1b8"})
			}
			slices.SortStableFunc(cast.Events, func(a, b recordings.Event) int { return cmp.Compare(a.Time, b.Time) })
			cast.Events = append(cast.Events,
				recordings.Event{Time: time.Second, Code: recordings.CodeInput, Data: "\r"},
				recordings.Event{Time: 1100 * time.Millisecond, Code: recordings.CodeOutput, Data: "\x1b[2J\x1b[Hran\r\n"},
				recordings.Event{Time: 1200 * time.Millisecond, Code: recordings.CodeExit, Data: "0"})
			var out, trace bytes.Buffer
			r := replay.Run(context.Background(), cast, replay.Options{Profile: prof, Out: emit.NewWriter(&out, emit.Config{}), AsRecorded: true, Trace: &trace})
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			if n := strings.Count(out.String(), `"type":"tool_use"`); n != 1 || !strings.Contains(out.String(), `"command":"ls -la"`) {
				t.Errorf("%d tool_uses, want 1 for ls -la:\n%s", n, out.String())
			}
			if got := askedAt(t, trace.Bytes()); got != c.asked {
				t.Errorf("asked at %v, want %v; trace:\n%s", got, c.asked, trace.String())
			}
		})
	}
}

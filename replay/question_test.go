package replay_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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

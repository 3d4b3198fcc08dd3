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
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
)

// TestRedrawnQuestionIsAskedOnce: a program that draws its question again
// while the GUI reads it (opencode draws a new file's diff rows a moment
// after its choices, under load after the question went out) still asks
// the question approved: its approval is typed once, not asked again.
// One that draws another question there (another command, another file,
// or its dialog's options changed) is asked again, its approval not typed.
func TestRedrawnQuestionIsAskedOnce(t *testing.T) {
	prof, err := heuristics.ParseProfile("edit.yaml", []byte(`name: edit
description: a file question over its diff rows, as opencode draws it
quiet_ms: 100
quit: '<C-c>'
rules:
  - name: write
    match: '(?m)^(?P<prompt>Permission required)\n  → Edit (?P<file>\S+)\n(?:  +\d+ \+ .*\n)+   Allow once   Reject$'
    kind: menu
    tool: Write
    approve: '<Enter>'
    deny: '<Right><Enter>'
`))
	if err != nil {
		t.Fatal(err)
	}
	dialog := func(top int, file string, rows ...string) string {
		s := fmt.Sprintf("\x1b[2J\x1b[%d;1H", top+1) + "Permission required\r\n  → Edit " + file + "\r\n"
		for i, r := range rows {
			s += fmt.Sprintf("  %d + %s\r\n", i+1, r)
		}
		return s + "   Allow once   Reject"
	}
	const shown = 100 * time.Millisecond
	for _, c := range []struct {
		name   string
		redraw string // drawn 20 ms after the question was asked
		asks   int    // tool_uses
	}{
		{"a diff row more", dialog(0, "notes.md", "# Notes", "hello"), 1},
		{"moved down a row", dialog(1, "notes.md", "# Notes"), 1},
		{"another file", dialog(0, "other.md", "# Notes", "hello"), 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			cast := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 80, Height: 24, Command: "edit"}}
			cast.Events = append(cast.Events,
				recordings.Event{Time: shown, Code: recordings.CodeOutput, Data: dialog(0, "notes.md", "# Notes")},
				// The quiet period passes, the question goes out; then:
				recordings.Event{Time: shown + 120*time.Millisecond, Code: recordings.CodeOutput, Data: c.redraw},
				recordings.Event{Time: time.Second, Code: recordings.CodeInput, Data: "\r"},
				recordings.Event{Time: 1100 * time.Millisecond, Code: recordings.CodeOutput, Data: "\x1b[2J\x1b[Hwrote it\r\n"},
				recordings.Event{Time: 1200 * time.Millisecond, Code: recordings.CodeExit, Data: "0"})
			var out, trace bytes.Buffer
			r := replay.Run(context.Background(), cast, replay.Options{Profile: prof, Out: emit.NewWriter(&out, emit.Config{}),
				AnswerAfter: 150 * time.Millisecond, Trace: &trace})
			uses := strings.Count(out.String(), `"type":"tool_use"`)
			if uses != c.asks {
				t.Errorf("%d tool_uses, want %d:\n%s\ntrace:\n%s", uses, c.asks, out.String(), trace.String())
			}
			if c.asks == 1 {
				if r.Err != nil || len(r.Mismatches) > 0 || r.Pending != "" {
					t.Errorf("the approval was not typed as recorded: err %v, mismatches %v, pending %q", r.Err, r.Mismatches, r.Pending)
				}
				if strings.Contains(out.String(), "changed before it was approved") {
					t.Errorf("the redrawn question was asked again:\n%s", out.String())
				}
			} else if !strings.Contains(out.String(), "changed before it was approved") {
				t.Errorf("another question was approved unasked:\n%s", out.String())
			}
		})
	}
}

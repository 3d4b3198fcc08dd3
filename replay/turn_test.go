package replay_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
)

// personAtInputBox is a recording of a person at a TUI's input box: they
// type a prompt, and press Enter after wait; the program then asks to run
// a command, the person approves, and the program shows its output; the
// person then leaves with Ctrl-C.
func personAtInputBox(wait time.Duration) *recordings.Cast {
	c := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 80, Height: 24, Command: "box"}}
	at := 100 * time.Millisecond
	add := func(code byte, data string) {
		c.Events = append(c.Events, recordings.Event{Time: at, Code: code, Data: data})
		at += 50 * time.Millisecond
	}
	add(recordings.CodeOutput, "READY> ")
	for _, r := range "list the files" {
		add(recordings.CodeInput, string(r))
		add(recordings.CodeOutput, string(r))
	}
	at += wait
	add(recordings.CodeInput, "\r")
	add(recordings.CodeOutput, "\r\nthinking…\r\nRun ls -la? (y/n) ")
	at += time.Second
	add(recordings.CodeInput, "y\r")
	add(recordings.CodeOutput, "y\r\nfile1\r\nfile2\r\nREADY> ")
	at += 6 * time.Second
	add(recordings.CodeInput, "\x03")
	add(recordings.CodeExit, "0")
	return c
}

// TestReplayTurnWaitsForThePersonsPrompt: a person who leaves the prompt
// in the input box longer than the idle timeout before pressing Enter
// still gets their turn: nothing ends it by idle while the recording has
// input to come.
func TestReplayTurnWaitsForThePersonsPrompt(t *testing.T) {
	prof, err := heuristics.ParseProfile("box.yaml", []byte(`name: box
description: a TUI's input box and its question
ready: '(?m)^READY>'
quit: '<C-c>'
rules:
  - name: run
    match: '(?m)^(?P<prompt>Run (?P<command>.+)\? \(y/n\)) *$'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, wait := range []time.Duration{time.Second, 12 * time.Second, 40 * time.Second} {
		var out bytes.Buffer
		r := replay.Run(context.Background(), personAtInputBox(wait), replay.Options{Profile: prof, Out: emit.NewWriter(&out, emit.Config{}), AsRecorded: true})
		if r.Err != nil {
			t.Fatalf("Enter after %v: %v", wait, r.Err)
		}
		if !strings.Contains(out.String(), `"command":"ls -la"`) {
			t.Errorf("Enter after %v (idle timeout 5s): no tool_use for the command the program asked about:\n%s", wait, out.String())
		}
		if strings.Contains(out.String(), "back at its input box") && r.Outcome.Questions == 0 {
			t.Errorf("Enter after %v: the turn ended by idle before it began:\n%s", wait, out.String())
		}
	}
}

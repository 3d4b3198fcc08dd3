package replay_test

import (
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
	"github.com/yume-cli/yume-cli/transcript"
)

// foldingProfile is a TUI that folds a command's output: its result rule
// never matches what it draws ("Ran 1 command").
const foldingProfile = `name: fold
description: a TUI that folds output
ready: '(?m)^READY>'
quit: '<C-c>'
rules:
  - name: run
    match: '(?m)^(?P<prompt>Run (?P<command>.+)\? \(y/n\)) *$'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
  - name: output
    match: '(?m)^OUT: (?P<output>.+)$'
    kind: result
  - name: done
    match: '(?m)^ANSWER: (?P<text>.+)\n+READY>'
    kind: done
`

// foldProfile is foldingProfile parsed.
func foldProfile(t *testing.T) *heuristics.Profile {
	t.Helper()
	prof, err := heuristics.ParseProfile("fold.yaml", []byte(foldingProfile))
	if err != nil {
		t.Fatal(err)
	}
	return prof
}

// foldedTurn is a recording made by yume-cli (start --record) of a turn
// whose program asks to run ls -la, is approved, and shows only "Ran 1
// command"; with log, it also holds what the driver read from the
// program's transcript.
func foldedTurn(log bool) *recordings.Cast {
	c := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 80, Height: 24, Command: "fold 'list the files'"}}
	at := 100 * time.Millisecond
	add := func(code byte, data string) {
		c.Events = append(c.Events, recordings.Event{Time: at, Code: code, Data: data})
		at += 50 * time.Millisecond
	}
	mark := func(label string) {
		if log {
			add(recordings.CodeMarker, label)
		}
	}
	mark(replay.LogStartMarker(replay.LogConfig{EndsTurns: true, Prompt: "list the files"}))
	add(recordings.CodeOutput, "thinking…\r\n")
	mark(replay.LogFoundMarker())
	mark(replay.LogEventMarker(transcript.Event{Kind: transcript.ToolCall, ID: "c1", Name: "Bash",
		Input: map[string]any{"command": "ls -la", "description": "List the files"}}, nil))
	add(recordings.CodeOutput, "Run ls -la? (y/n) ")
	at += time.Second
	add(recordings.CodeInput, "y\r")
	add(recordings.CodeOutput, "y\r\nRan 1 command\r\n")
	mark(replay.LogEventMarker(transcript.Event{Kind: transcript.ToolResult, ID: "c1", Output: "file1\nfile2"}, nil))
	mark(replay.LogEventMarker(transcript.Event{Kind: transcript.Tokens, ID: "r1", Usage: &transcript.Usage{Input: 12, Output: 3, CacheRead: 900}}, nil))
	add(recordings.CodeOutput, "ANSWER: two files\r\n\r\nREADY> ")
	mark(replay.LogEventMarker(transcript.Event{Kind: transcript.TurnEnd}, nil))
	at += 300 * time.Millisecond
	add(recordings.CodeInput, "\x03")
	add(recordings.CodeOutput, "\r\nbye\r\n")
	add(recordings.CodeExit, "0")
	return c
}

// TestReplayReadsTheRecordedTranscript: a recording that holds the
// program's transcript replays with the call's input and output from it,
// as the live run reported them, though the screen never showed the
// output; without it, the tool_result says the recording cannot tell.
func TestReplayReadsTheRecordedTranscript(t *testing.T) {
	prof := foldProfile(t)
	for _, tc := range []struct {
		log                bool
		wantInput, wantOut string
		wantUsage          string // the result's, as JSON ("null": none)
	}{
		{true, `{"command":"ls -la","description":"List the files"}`, "file1\nfile2",
			`{"input_tokens":12,"output_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":900}`},
		{false, `{"command":"ls -la"}`, "(the program showed no output for this command, and the recording does not have it: a live run reads it from the program's transcript)", "null"},
	} {
		var out bytes.Buffer
		var trace bytes.Buffer
		r := replay.Run(context.Background(), foldedTurn(tc.log), replay.Options{Profile: prof, Out: emit.NewWriter(&out, emit.Config{}), AsRecorded: true, Trace: &trace})
		if r.Err != nil || len(r.Mismatches) > 0 || r.Pending != "" {
			t.Fatalf("log %v: err %v, mismatches %v, pending %q\n%s\n%s", tc.log, r.Err, r.Mismatches, r.Pending, out.String(), trace.String())
		}
		inputs, results, usage := streamCalls(t, out.String())
		if len(inputs) != 1 || inputs[0] != tc.wantInput {
			t.Errorf("log %v: tool_use inputs %q, want [%s]", tc.log, inputs, tc.wantInput)
		}
		if len(results) != 1 || results[0].Content != tc.wantOut {
			t.Errorf("log %v: tool_results %+v, want [%q]", tc.log, results, tc.wantOut)
		}
		if usage != tc.wantUsage {
			t.Errorf("log %v: result usage %s, want %s", tc.log, usage, tc.wantUsage)
		}
	}
}

// TestLogMarkerRedacts: the text of a logged event passes through the
// recording's redaction, in the input too, and a marker that is not one
// the replay knows is an error, not a silent replay without the log.
func TestLogMarkerRedacts(t *testing.T) {
	hide := func(s string) string { return strings.ReplaceAll(s, "hunter2", "[redacted]") }
	m := replay.LogEventMarker(transcript.Event{Kind: transcript.ToolCall, ID: "c1", Name: "Bash",
		Input: map[string]any{"command": "login -p hunter2", "env": []any{"PW=hunter2"}}}, hide)
	if strings.Contains(m, "hunter2") || strings.Count(m, "[redacted]") != 2 {
		t.Errorf("marker %q: want both secrets redacted", m)
	}
	bad := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 80, Height: 24}, Events: []recordings.Event{
		{Time: time.Millisecond, Code: recordings.CodeMarker, Data: "session log: event {\"kind\":\"nonsense\"}"},
		{Time: 2 * time.Millisecond, Code: recordings.CodeExit, Data: "0"},
	}}
	prof := foldProfile(t)
	var out bytes.Buffer
	if r := replay.Run(context.Background(), bad, replay.Options{Profile: prof, Out: emit.NewWriter(&out, emit.Config{})}); r.Err == nil ||
		!strings.Contains(r.Err.Error(), "nonsense") {
		t.Errorf("a marker of an unknown kind: err %v, want it named", r.Err)
	}
}

// quickAnswer is a recording made by yume-cli of a turn whose program asks
// to run ls -la and writes the call's end to its transcript 18 ms after
// the answer's keys: sooner after the screen settles than a live
// driver's read of the log lags (driver.logSlack).
func quickAnswer(keys, output string) *recordings.Cast {
	c := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 80, Height: 24, Command: "fold 'list the files'"}}
	add := func(ms int, code byte, data string) {
		c.Events = append(c.Events, recordings.Event{Time: time.Duration(ms) * time.Millisecond, Code: code, Data: data})
	}
	add(1, recordings.CodeMarker, replay.LogStartMarker(replay.LogConfig{EndsTurns: true, Prompt: "list the files"}))
	add(100, recordings.CodeOutput, "thinking…\r\n")
	add(150, recordings.CodeMarker, replay.LogFoundMarker())
	add(150, recordings.CodeMarker, replay.LogEventMarker(transcript.Event{Kind: transcript.ToolCall, ID: "c1", Name: "Bash",
		Input: map[string]any{"command": "ls -la", "description": "List the files"}}, nil))
	add(200, recordings.CodeOutput, "Run ls -la? (y/n) ")
	add(241, recordings.CodeMarker, "question 1: ls -la")
	add(242, recordings.CodeInput, keys)
	add(255, recordings.CodeOutput, keys[:1]+"\r\n"+output+"\r\n")
	add(260, recordings.CodeMarker, replay.LogEventMarker(transcript.Event{Kind: transcript.ToolResult, ID: "c1", Output: output, IsError: keys[0] == 'n'}, nil))
	add(300, recordings.CodeOutput, "ANSWER: done\r\n\r\nREADY> ")
	add(310, recordings.CodeMarker, replay.LogEventMarker(transcript.Event{Kind: transcript.TurnEnd}, nil))
	add(600, recordings.CodeInput, "\x03")
	add(650, recordings.CodeOutput, "\r\nbye\r\n")
	add(700, recordings.CodeExit, "0")
	return c
}

// TestReplayLogWaitsForTheKeys: a read of the transcript recorded after
// the answer's keys is not read before the replay typed them, however
// soon after the keys it came (a read lags the screen by up to logSlack,
// but it cannot lag keys not typed yet: it may hold what they caused).
// Read early, a denied call's end came before its question, and the
// replay reported a call run without asking and keys no rule typed (CI:
// TestLiveReplayParity/codex-deny, when Codex wrote its "aborted by user"
// 22 ms after the Esc).
func TestReplayLogWaitsForTheKeys(t *testing.T) {
	prof := foldProfile(t)
	for _, tc := range []struct {
		keys, output string
		want         string // the tool_result
		isError      bool
	}{
		{"n\r", "aborted by user", "Denied by the user.", true},
		{"y\r", "file1\nfile2", "file1\nfile2", false},
	} {
		var out, trace bytes.Buffer
		r := replay.Run(context.Background(), quickAnswer(tc.keys, tc.output), replay.Options{Profile: prof, Out: emit.NewWriter(&out, emit.Config{}), AsRecorded: true, Trace: &trace})
		if r.Err != nil || len(r.Mismatches) > 0 || r.Pending != "" {
			t.Fatalf("%q: err %v, mismatches %v, pending %q\n%s\n%s", tc.keys, r.Err, r.Mismatches, r.Pending, out.String(), trace.String())
		}
		uses, results, _ := streamCalls(t, out.String())
		wantUse := `{"command":"ls -la","description":"List the files"}`
		if len(uses) != 1 || uses[0] != wantUse || len(results) != 1 || results[0].Content != tc.want || results[0].IsError != tc.isError {
			t.Errorf("%q: tool_uses %q, tool_results %+v; want [%s], [%q error %v]\n%s", tc.keys, uses, results, wantUse, tc.want, tc.isError, trace.String())
		}
	}
}

// toolResult is a tool_result block of the stream.
type toolResult struct {
	Content string `json:"content"`
	IsError bool   `json:"is_error"`
}

// streamCalls reads a replay's stream: its tool_uses' inputs (JSON), its
// tool_results, and its result's usage (JSON; "null": none).
func streamCalls(t *testing.T, stream string) (inputs []string, results []toolResult, usage string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		var ev struct {
			Type    string          `json:"type"`
			Usage   json.RawMessage `json:"usage"`
			Message struct {
				Content []struct {
					toolResult
					Type  string          `json:"type"`
					Input json.RawMessage `json:"input"`
				} `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if ev.Type == "result" {
			usage = string(ev.Usage)
			if usage == "" {
				usage = "null"
			}
		}
		for _, b := range ev.Message.Content {
			switch b.Type {
			case "tool_use":
				inputs = append(inputs, string(b.Input))
			case "tool_result":
				results = append(results, b.toolResult)
			}
		}
	}
	return inputs, results, usage
}

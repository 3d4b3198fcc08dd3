package providers

import (
	"encoding/json"
	"path/filepath"
	"strconv"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/transcript"
)

// Copilot CLI writes a session's events to
// ~/.copilot/session-state/<session id>/events.jsonl ($COPILOT_HOME moves
// ~/.copilot): assistant.message with its text and tool requests,
// permission.requested before a question is drawn, tool.execution_complete
// with the output, and assistant.turn_end after each model round — the
// last round of a turn requested no tools; session.usage_record after
// each model request, with its tokens (input counting the cached ones).
func copilotTranscript(l Launch) transcript.Source {
	home := l.Getenv("COPILOT_HOME")
	if home == "" {
		home = filepath.Join(l.Getenv("HOME"), ".copilot")
	}
	path := filepath.Join(home, "session-state", l.Session, "events.jsonl")
	src := transcript.NewTail(func() (string, bool) { return path, l.Session != "" }, ofRun(l, newCopilotParser()))
	if l.Started.IsZero() {
		return src
	}
	return addFoundLog(src, func() string { return copilotLogPath(l) }, copilotLog(l))
}

// copilotRead are the events the transcript reads: others' data is not
// decoded.
var copilotRead = map[string]bool{"session.start": true, "assistant.turn_start": true, "session.usage_record": true,
	"session.error": true, "assistant.message": true, "tool.execution_complete": true, "assistant.turn_end": true}

// newCopilotParser reads events.jsonl; it remembers which calls are
// hidden bookkeeping and whether the round asked for tools.
func newCopilotParser() transcript.Parser {
	hidden := map[string]bool{}
	roundHadTools := false
	return func(line []byte) []transcript.Event {
		var e CopilotEvent
		var data CopilotData
		if json.Unmarshal(line, &e) != nil || !copilotRead[e.Type] || len(e.Data) > 0 && json.Unmarshal(e.Data, &data) != nil {
			return nil
		}
		switch e.Type {
		case "session.start":
			return []transcript.Event{{Kind: transcript.Session, Session: data.SessionID}}
		case "assistant.turn_start":
			roundHadTools = false
		case "session.usage_record":
			if u := data.Usage; u != nil {
				ev := transcript.Event{Kind: transcript.Tokens, ID: e.ID, At: stamp(e.Timestamp),
					Usage: transcript.SplitUsage(u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens)}
				ev.Usage.CostUSD = u.Cost
				return []transcript.Event{ev}
			}
		case "session.error":
			if data.Message != "" {
				return []transcript.Event{{Kind: transcript.ModelError, Text: data.Message}}
			}
		case "assistant.message":
			var out []transcript.Event
			if data.Content != "" {
				out = append(out, transcript.Event{Kind: transcript.Text, Text: data.Content})
			}
			for _, r := range data.ToolRequests {
				args := CopilotArgs(r.Arguments)
				name, input := copilotCall(r.Name, args)
				if name == "" {
					hidden[r.ToolCallID] = true
					continue
				}
				roundHadTools = true
				ev := transcript.Event{Kind: transcript.ToolCall, ID: r.ToolCallID, Name: name, Input: input}
				if name == "apply_patch" {
					if calls := PatchCalls(str(args["input"])); len(calls) > 0 {
						ev.Name, ev.Input, ev.Also = calls[0].Name, calls[0].Input, calls[1:]
					}
				}
				out = append(out, ev)
			}
			return out
		case "tool.execution_complete":
			if hidden[data.ToolCallID] {
				return nil
			}
			out := ""
			if data.Result != nil {
				out = blocksOrString(data.Result.Content)
			}
			if !data.Success && out == "" {
				out = blocksOrString(data.Error)
			}
			out, code := copilotShellTrailer(out)
			return []transcript.Event{{Kind: transcript.ToolResult, ID: data.ToolCallID, Output: out, IsError: !data.Success || code != 0}}
		case "assistant.turn_end":
			if !roundHadTools {
				return []transcript.Event{{Kind: transcript.TurnEnd}}
			}
		}
		return nil
	}
}

// copilotTrailer is the note Copilot puts after a shell command's output
// for the model: "<shellId: 0 completed with exit code 0>".
var copilotTrailer = lazyre.New(`\n?<(?:shellId: \d+ completed|exited) with exit code (\d+)>\s*$`)

// copilotShellTrailer is out without that note, and the exit code it gave
// (0 without one).
func copilotShellTrailer(out string) (string, int) {
	m := copilotTrailer.FindStringSubmatchIndex(out)
	if m == nil {
		return out, 0
	}
	code, _ := strconv.Atoi(out[m[2]:m[3]])
	return out[:m[0]], code
}

// copilotCall maps a Copilot tool; "" hides bookkeeping.
func copilotCall(name string, args map[string]any) (string, map[string]any) {
	if args == nil {
		args = map[string]any{}
	}
	return copilotTool(name, args)
}

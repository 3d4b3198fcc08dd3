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

type copilotEvent struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Data      struct {
		SessionID    string `json:"sessionId"`
		Content      string `json:"content"`
		ToolRequests []struct {
			ToolCallID string          `json:"toolCallId"`
			Name       string          `json:"name"`
			Arguments  json.RawMessage `json:"arguments"`
		} `json:"toolRequests"`
		ToolCallID string `json:"toolCallId"`
		Success    bool   `json:"success"`
		Result     *struct {
			Content json.RawMessage `json:"content"`
		} `json:"result"`
		Error json.RawMessage `json:"error"`
		// Message is session.error's: "Authentication failed with
		// provider at … (HTTP 401). Check your COPILOT_PROVIDER_API_KEY…".
		Message string `json:"message"`
		Usage   *struct {
			InputTokens      int     `json:"inputTokens"`
			OutputTokens     int     `json:"outputTokens"`
			CacheReadTokens  int     `json:"cacheReadTokens"`
			CacheWriteTokens int     `json:"cacheWriteTokens"`
			Cost             float64 `json:"cost"`
		} `json:"usage"`
	} `json:"data"`
}

// newCopilotParser reads events.jsonl; it remembers which calls are
// hidden bookkeeping and whether the round asked for tools.
func newCopilotParser() transcript.Parser {
	hidden := map[string]bool{}
	roundHadTools := false
	return func(line []byte) []transcript.Event {
		var e copilotEvent
		if json.Unmarshal(line, &e) != nil {
			return nil
		}
		switch e.Type {
		case "session.start":
			return []transcript.Event{{Kind: transcript.Session, Session: e.Data.SessionID}}
		case "assistant.turn_start":
			roundHadTools = false
		case "session.usage_record":
			if u := e.Data.Usage; u != nil {
				ev := transcript.Event{Kind: transcript.Tokens, ID: e.ID, At: stamp(e.Timestamp),
					Usage: transcript.SplitUsage(u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens)}
				ev.Usage.CostUSD = u.Cost
				return []transcript.Event{ev}
			}
		case "session.error":
			if e.Data.Message != "" {
				return []transcript.Event{{Kind: transcript.ModelError, Text: e.Data.Message}}
			}
		case "assistant.message":
			var out []transcript.Event
			if e.Data.Content != "" {
				out = append(out, transcript.Event{Kind: transcript.Text, Text: e.Data.Content})
			}
			for _, r := range e.Data.ToolRequests {
				args := copilotArgs(r.Arguments)
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
			if hidden[e.Data.ToolCallID] {
				return nil
			}
			out := ""
			if e.Data.Result != nil {
				out = blocksOrString(e.Data.Result.Content)
			}
			if !e.Data.Success && out == "" {
				out = blocksOrString(e.Data.Error)
			}
			out, code := copilotShellTrailer(out)
			return []transcript.Event{{Kind: transcript.ToolResult, ID: e.Data.ToolCallID, Output: out, IsError: !e.Data.Success || code != 0}}
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

// copilotArgs reads a tool request's arguments: an object, or the text of
// a custom (freeform) tool such as apply_patch, as {"input": text}.
func copilotArgs(raw json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil && m != nil {
		return m
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return map[string]any{"input": s}
	}
	return map[string]any{}
}

// copilotCall maps a Copilot tool; "" hides bookkeeping.
func copilotCall(name string, args map[string]any) (string, map[string]any) {
	if args == nil {
		args = map[string]any{}
	}
	return copilotTool(name, args)
}

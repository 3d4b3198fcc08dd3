package providers

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/yume-cli/yume-cli/transcript"
)

// Qwen Code keeps a transcript per session,
// ~/.qwen/projects/<the workspace path, "/" as "-">/chats/<session id>.jsonl:
// one line per entry, each with its sessionId. The model's message, with
// its function calls, is written when it arrives (before a call is asked
// about or runs); the call's "tool_result" entry once it ran, with the
// whole output (toolCallResult.resultDisplay.output for a shell call).
// Nothing in it marks the end of a turn. Side entries (type "system":
// telemetry, snapshots) are skipped, except the telemetry of a call made
// by one of Qwen's side requests (qwen_side.go): that call is reported
// (a tool_call and its tool_result) with the next entry of the
// conversation itself (a prompt, an answer, a result), since it is made
// after the turn's first reply and often after the turn: between turns
// a reader reports nothing, and the next turn reports it first.
func qwenTranscript(l Launch) transcript.Source {
	pattern := filepath.Join(l.Getenv("HOME"), ".qwen", "projects", "*", "chats", l.Session+".jsonl")
	src := transcript.NewTail(func() (string, bool) { return firstMatch(pattern) }, ofRun(l, newQwenParser()))
	if path, _ := qwenDebugPath(l); path != "" && !l.Started.IsZero() {
		return addDebugLog(src, path, qwenDebug(l), false) // Qwen's own file: kept
	}
	return src
}

type qwenPart struct {
	Text         string `json:"text"`
	Thought      bool   `json:"thought"`
	FunctionCall *struct {
		ID   string         `json:"id"`
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string `json:"id"`
		Response struct {
			Output string `json:"output"`
			Error  string `json:"error"`
		} `json:"response"`
	} `json:"functionResponse"`
}

type qwenTranscriptLine struct {
	SessionID  string `json:"sessionId"`
	Timestamp  string `json:"timestamp"` // RFC 3339
	Type       string `json:"type"`
	Provenance string `json:"provenance"`
	UUID       string `json:"uuid"`
	Message    struct {
		Parts []qwenPart `json:"parts"`
	} `json:"message"`
	// UsageMetadata is an assistant entry's tokens, as the Gemini API
	// counts them (the prompt includes the cached tokens).
	UsageMetadata *struct {
		PromptTokenCount        int `json:"promptTokenCount"`
		CandidatesTokenCount    int `json:"candidatesTokenCount"`
		CachedContentTokenCount int `json:"cachedContentTokenCount"`
	} `json:"usageMetadata"`
	ToolCallResult *struct {
		CallID        string `json:"callId"`
		Status        string `json:"status"`
		ResultDisplay any    `json:"resultDisplay"`
	} `json:"toolCallResult"`
	// SystemPayload is a "system" entry's: a ui_telemetry one tells of
	// the calls of Qwen's side requests (qwen_side.go).
	SystemPayload *qwenSystemPayload `json:"systemPayload"`
}

type qwenSystemPayload struct {
	UIEvent qwenTelemetry `json:"uiEvent"`
}

// newQwenParser reads the transcript; the first line's sessionId names
// the session.
func newQwenParser() transcript.Parser {
	named := false
	var side []transcript.Event // side calls held for the conversation's next entry
	return func(line []byte) []transcript.Event {
		var l qwenTranscriptLine
		if json.Unmarshal(line, &l) != nil {
			return nil
		}
		var out []transcript.Event
		if !named && l.SessionID != "" {
			named = true
			out = append(out, transcript.Event{Kind: transcript.Session, Session: l.SessionID})
		}
		switch l.Type {
		case "system":
			side = append(side, qwenSideEvents(l.SystemPayload)...)
			return out
		case "user", "assistant", "tool_result":
			out, side = append(out, side...), nil
		}
		switch l.Type {
		case "user":
			var text []string
			for _, p := range l.Message.Parts {
				text = append(text, p.Text)
			}
			if l.Provenance == "real_user" {
				out = append(out, transcript.Event{Kind: transcript.Prompt, Text: strings.Join(text, "")})
			}
		case "assistant":
			var usage *transcript.Usage
			if u := l.UsageMetadata; u != nil && u.PromptTokenCount+u.CandidatesTokenCount > 0 {
				usage = transcript.SplitUsage(u.PromptTokenCount, u.CandidatesTokenCount, u.CachedContentTokenCount, 0)
				out = append(out, transcript.Event{Kind: transcript.Tokens, ID: l.UUID, At: stamp(l.Timestamp), Usage: usage})
			}
			for _, p := range l.Message.Parts {
				switch {
				case p.FunctionCall != nil:
					name, input := geminiTool(p.FunctionCall.Name, p.FunctionCall.Args)
					out = append(out, transcript.Event{Kind: transcript.ToolCall, ID: p.FunctionCall.ID, Name: name, Input: input})
				case p.Text != "" && !p.Thought:
					out = append(out, transcript.Event{Kind: transcript.Text, Text: p.Text, Usage: usage})
				}
			}
		case "tool_result":
			out = append(out, qwenResult(l)...)
		}
		return out
	}
}

// qwenResult is a tool_result entry's output: a shell call's own output
// from its display (the response wraps it in "Command: … Output: …"),
// else the response's output or error.
func qwenResult(l qwenTranscriptLine) []transcript.Event {
	var out []transcript.Event
	for _, p := range l.Message.Parts {
		r := p.FunctionResponse
		if r == nil {
			continue
		}
		ev := transcript.Event{Kind: transcript.ToolResult, ID: r.ID, Output: r.Response.Output}
		if ev.Output == "" {
			ev.Output = r.Response.Error
		}
		if t := l.ToolCallResult; t != nil && t.CallID == r.ID {
			ev.IsError = t.Status != "success"
			if d, ok := t.ResultDisplay.(map[string]any); ok && d["type"] == "shell_result" {
				if s, ok := d["output"].(string); ok {
					ev.Output = s
				}
			}
		} else {
			ev.IsError = r.Response.Error != ""
		}
		out = append(out, ev)
	}
	return out
}

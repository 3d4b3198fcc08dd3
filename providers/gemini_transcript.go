package providers

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/transcript"
)

// Gemini CLI keeps a chat log, ~/.gemini/tmp/<project>/chats/
// session-<time>-<first 8 of the session id>.jsonl: a header line, one
// line per message, and "$set" lines that update the header. A model
// message is written as it arrives and written again, whole, once its
// tool calls ran, with their results: calls reach the log only after they
// ran, so a question's command comes from the screen. Nothing in the log
// marks the end of a turn. A model message carries its request's tokens
// (input counting the cached ones, as the Gemini API does).
func geminiTranscript(l Launch) transcript.Source {
	short := l.Session
	if len(short) > 8 {
		short = short[:8]
	}
	pattern := filepath.Join(l.Getenv("HOME"), ".gemini", "tmp", "*", "chats", "session-*-"+short+".jsonl")
	src := transcript.NewTail(func() (string, bool) { return firstMatch(pattern) }, ofRun(l, newGeminiParser()))
	return addDebugLog(src, debugLogPath("gemini", l), parseGeminiDebug)
}

type geminiLogLine struct {
	SessionID string          `json:"sessionId"`
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Content   json.RawMessage `json:"content"`
	Tokens    *struct {
		Input  int `json:"input"`
		Output int `json:"output"`
		Cached int `json:"cached"`
	} `json:"tokens"`
	ToolCalls []struct {
		ID     string         `json:"id"`
		Name   string         `json:"name"`
		Args   map[string]any `json:"args"`
		Status string         `json:"status"`
		Result []struct {
			FunctionResponse struct {
				Response struct {
					Output string `json:"output"`
					Error  string `json:"error"`
				} `json:"response"`
			} `json:"functionResponse"`
		} `json:"result"`
	} `json:"toolCalls"`
}

// newGeminiParser reads the chat log; it remembers the messages and calls
// already seen, since a message is written again with its calls.
func newGeminiParser() transcript.Parser {
	seenMsg, seenCall := map[string]bool{}, map[string]bool{}
	return func(line []byte) []transcript.Event {
		var l geminiLogLine
		if json.Unmarshal(line, &l) != nil {
			return nil
		}
		if l.SessionID != "" && l.ID == "" {
			return []transcript.Event{{Kind: transcript.Session, Session: l.SessionID}}
		}
		if l.Type == "user" && l.ID != "" && !seenMsg[l.ID] {
			seenMsg[l.ID] = true
			return []transcript.Event{{Kind: transcript.Prompt, Text: blocksOrString(l.Content)}}
		}
		if l.Type != "gemini" || l.ID == "" {
			return nil
		}
		var out []transcript.Event
		var usage *transcript.Usage
		if t := l.Tokens; t != nil && t.Input+t.Output > 0 {
			usage = transcript.SplitUsage(t.Input, t.Output, t.Cached, 0)
			out = append(out, transcript.Event{Kind: transcript.Tokens, ID: l.ID, At: stamp(l.Timestamp), Usage: usage})
		}
		if !seenMsg[l.ID] {
			seenMsg[l.ID] = true
			if text := blocksOrString(l.Content); text != "" && text != "null" {
				out = append(out, transcript.Event{Kind: transcript.Text, Text: text, Usage: usage})
			}
		}
		for _, c := range l.ToolCalls {
			if seenCall[c.ID] {
				continue
			}
			seenCall[c.ID] = true
			name, input := geminiTool(c.Name, c.Args)
			out = append(out, transcript.Event{Kind: transcript.ToolCall, ID: c.ID, Name: name, Input: input})
			var res, errText string
			for _, r := range c.Result {
				res += r.FunctionResponse.Response.Output
				errText += r.FunctionResponse.Response.Error
			}
			if res == "" {
				res = errText
			}
			out = append(out, transcript.Event{Kind: transcript.ToolResult, ID: c.ID, Output: geminiOutput(res), IsError: c.Status != "success",
				Refused: c.Status == "cancelled"})
		}
		return out
	}
}

var geminiPGID = lazyre.New(`(?m)^Process Group PGID: \d+\n?`)

// geminiOutput is a shell call's output without Gemini's wrapping:
// <untrusted_context> tags, "Output: " and the process group line.
func geminiOutput(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "<untrusted_context>")
	s = strings.TrimSuffix(s, "</untrusted_context>")
	s = strings.TrimPrefix(strings.TrimLeft(s, "\n"), "Output: ")
	s = geminiPGID.ReplaceAllString(s, "")
	s = strings.TrimRight(s, "\n")
	if s == "(empty)" { // Gemini's word for no output
		return ""
	}
	return s
}

package providers

import (
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/transcript"
)

// Claude Code appends every message of a session to
// <config>/projects/<cwd made a file name>/<session id>.jsonl, where
// <config> is $CLAUDE_CONFIG_DIR or ~/.claude. The assistant's text and
// tool calls (Claude's own tool names) are there before a permission
// question is drawn, tool results after a call ran, and a system
// "turn_duration" line when the turn ends. Each assistant line carries its
// model request's usage (message.id names the request; a request's
// blocks are lines of their own, each with the usage so far).
func claudeTranscript(l Launch) transcript.Source {
	dir := l.Getenv("CLAUDE_CONFIG_DIR")
	if dir == "" {
		dir = filepath.Join(l.Getenv("HOME"), ".claude")
	}
	pattern := filepath.Join(dir, "projects", "*", l.Session+".jsonl")
	src := transcript.NewTail(func() (string, bool) { return firstMatch(pattern) }, ofRun(l, parseClaudeTranscript))
	return addDebugLog(src, claudeDebugLog(l), parseClaudeDebug)
}

// firstMatch is the first file matching pattern.
func firstMatch(pattern string) (string, bool) {
	m, _ := filepath.Glob(pattern)
	if len(m) == 0 {
		return "", false
	}
	return m[0], true
}

type claudeTranscriptLine struct {
	Type        string `json:"type"`
	Subtype     string `json:"subtype"`
	IsSidechain bool   `json:"isSidechain"`
	SessionID   string `json:"sessionId"`
	// IsAPIError marks the text of an assistant line as Claude Code's
	// report of a failed API request, not the model's answer.
	IsAPIError bool   `json:"isApiErrorMessage"`
	Timestamp  string `json:"timestamp"`
	Message    *struct {
		ID      string          `json:"id"`
		Content json.RawMessage `json:"content"`
		Usage   *emit.Usage     `json:"usage"`
	} `json:"message"`
}

// parseClaudeTranscript reads one line of a Claude Code transcript.
// Sub-agents' lines (sidechains) are not the session's own work.
func parseClaudeTranscript(line []byte) []transcript.Event {
	var l claudeTranscriptLine
	if json.Unmarshal(line, &l) != nil || l.IsSidechain {
		return nil
	}
	switch {
	case l.Type == "system" && l.Subtype == "turn_duration":
		return []transcript.Event{{Kind: transcript.TurnEnd}}
	case (l.Type == "assistant" || l.Type == "user") && l.Message != nil:
		var blocks []emit.Block
		if json.Unmarshal(l.Message.Content, &blocks) != nil {
			return nil // a prompt as a plain string
		}
		var out []transcript.Event
		var usage *transcript.Usage // the line's request's, for its text too
		if u := l.Message.Usage; l.Type == "assistant" && u != nil && !l.IsAPIError && u.Total() > 0 {
			usage = &transcript.Usage{Input: u.InputTokens, Output: u.OutputTokens, CacheRead: u.CacheReadInputTokens, CacheWrite: u.CacheCreationInputTokens}
			out = append(out, transcript.Event{Kind: transcript.Tokens, ID: l.Message.ID, At: stamp(l.Timestamp), Usage: usage})
		}
		for _, b := range blocks {
			switch {
			case l.Type == "assistant" && b.Type == "text" && b.Text != "" && l.IsAPIError:
				out = append(out, transcript.Event{Kind: transcript.ModelError, Text: b.Text})
			case l.Type == "assistant" && b.Type == "text" && b.Text != "":
				out = append(out, transcript.Event{Kind: transcript.Text, Text: b.Text, Usage: usage})
			case l.Type == "assistant" && b.Type == "tool_use":
				var input map[string]any
				_ = json.Unmarshal(b.Input, &input) // Best effort: a call with no input object is still the call.
				out = append(out, transcript.Event{Kind: transcript.ToolCall, ID: b.ID, Name: b.Name, Input: input})
			case l.Type == "user" && b.Type == "tool_result":
				output := blocksOrString(b.Content)
				if claudeNoOutput.MatchString(output) {
					output = "" // Claude's words to the model for nothing printed
				}
				out = append(out, transcript.Event{Kind: transcript.ToolResult, ID: b.ToolUseID, Output: output, IsError: b.IsError})
			}
		}
		return out
	}
	return nil
}

// ofRun is parse without the tokens an earlier run recorded: a resumed
// session's transcript holds its earlier requests too, which are not this
// run's usage. (The transcript's times are the program's clock, the same as
// Started's on one machine.)
func ofRun(l Launch, parse transcript.Parser) transcript.Parser {
	if l.Started.IsZero() {
		return parse
	}
	return func(line []byte) []transcript.Event {
		evs := parse(line)
		out := evs[:0]
		for _, e := range evs {
			if e.Kind == transcript.Tokens && !e.At.IsZero() && e.At.Before(l.Started) {
				continue
			}
			out = append(out, e)
		}
		return out
	}
}

// stamp reads a transcript line's RFC 3339 time; zero when it is not one.
func stamp(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

var claudeNoOutput = lazyre.New(`^\(\w+ completed with no output\)$`)

// blocksOrString reads tool output: a string, or text blocks joined.
func blocksOrString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return string(raw)
	}
	var out string
	for _, b := range blocks {
		// Claude's blocks say "type":"text"; Gemini's parts are bare {"text"}.
		if b.Type == "text" || b.Type == "" && b.Text != "" {
			if out != "" {
				out += "\n"
			}
			out += b.Text
		}
	}
	return out
}

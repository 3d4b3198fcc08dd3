package background

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// AgentOutput is the file --output-file names, in the shape of Yume's
// AgentOutput (src/renderer/types/backgroundAgents.ts), which Yume shows
// when the agent's process has ended:
//
//	{session: {id, history: [{role, content?, toolCalls?}], usage: {inputTokens, outputTokens}},
//	 result: {success, durationMs, numTurns}, timestamp}
//
// The history's entries are those of Yume's shim (role user, assistant,
// tool or system; an assistant's tool calls; a tool result's call id).
// Fields Yume's type does not name (the cache's tokens, the error) are
// extra, and a reader of the type ignores them.
type AgentOutput struct {
	Session   OutputSession `json:"session"`
	Result    OutputResult  `json:"result"`
	Timestamp int64         `json:"timestamp"` // Unix milliseconds, when it was written
}

// OutputSession is the conversation: the session id given, what was said
// and done, and the tokens it took.
type OutputSession struct {
	ID      string    `json:"id"`
	History []Message `json:"history"`
	Usage   Usage     `json:"usage"`
}

// Message is one entry of the history.
type Message struct {
	// Role is user (the prompt), assistant (its text and tool calls),
	// tool (a tool's result) or system (an error the stream said).
	Role       string     `json:"role"`
	Content    string     `json:"content,omitempty"`
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`
	ToolCallID string     `json:"toolCallId,omitempty"`
	IsError    bool       `json:"isError,omitempty"`
}

// ToolCall is a call the assistant made.
type ToolCall struct {
	ID    string         `json:"id"`
	Name  string         `json:"name"`
	Input map[string]any `json:"input"`
}

// Usage is the tokens of the run, in Claude's split as the stream reports
// them: InputTokens are the prompt's tokens read neither from nor into the
// cache, which the cache fields count.
type Usage struct {
	InputTokens         int `json:"inputTokens"`
	OutputTokens        int `json:"outputTokens"`
	CacheReadTokens     int `json:"cacheReadTokens"`
	CacheCreationTokens int `json:"cacheCreationTokens"`
}

// Total is every token the run's requests counted.
func (u Usage) Total() int {
	return u.InputTokens + u.OutputTokens + u.CacheReadTokens + u.CacheCreationTokens
}

// OutputResult is how the run ended.
type OutputResult struct {
	Success    bool   `json:"success"`
	DurationMs int64  `json:"durationMs"`
	NumTurns   int    `json:"numTurns"`
	Error      string `json:"error,omitempty"`
}

// WriteOutput writes out to path atomically: a temp file beside it, synced,
// then renamed over it, so Yume never reads half a file. The folder is
// made when missing; the file is private (0600), as the session store is.
func WriteOutput(path string, out AgentOutput) error {
	if out.Session.History == nil {
		out.Session.History = []Message{} // Yume maps over it
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // commands keep their < > &
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("--output-file: %w", err)
	}
	data := buf.Bytes()
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("--output-file: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("--output-file: %w", err)
	}
	defer os.Remove(tmp.Name()) // Best effort: gone once renamed.
	if _, err = tmp.Write(data); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("--output-file %s: %w", path, err)
	}
	return nil
}

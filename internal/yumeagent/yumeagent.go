// Package yumeagent is Yume's AgentOutput as Yume's TypeScript declares it
// (src/renderer/types/backgroundAgents.ts), for tests to read what a
// background agent left exactly as Yume reads it:
//
//	export interface AgentOutput {
//	  session: {
//	    id: string;
//	    history: Array<{ role: string; content?: string; toolCalls?: unknown[] }>;
//	    usage: { inputTokens: number; outputTokens: number };
//	  };
//	  result: { success: boolean; durationMs: number; numTurns: number };
//	  timestamp: number;
//	}
//
// Pointers tell a field that is there from one that is not: every field
// the type requires must be present with its JSON type. background.
// AgentOutput is what yume-cli writes; this is the reader's side of it.
package yumeagent

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Output is one AgentOutput file.
type Output struct {
	Session *struct {
		ID      *string  `json:"id"`
		History *[]Entry `json:"history"`
		Usage   *struct {
			InputTokens  *float64 `json:"inputTokens"`
			OutputTokens *float64 `json:"outputTokens"`
		} `json:"usage"`
	} `json:"session"`
	Result *struct {
		Success    *bool    `json:"success"`
		DurationMs *float64 `json:"durationMs"`
		NumTurns   *float64 `json:"numTurns"`
		Error      string   `json:"error"` // yume-cli's, not in Yume's type
	} `json:"result"`
	Timestamp *float64 `json:"timestamp"`
}

// Entry is one entry of the history.
type Entry struct {
	Role      *string    `json:"role"`
	Content   *string    `json:"content"`
	ToolCalls []ToolCall `json:"toolCalls"`
}

// ToolCall is an assistant's call (unknown[] to Yume; yume-cli's shape).
type ToolCall struct {
	ID    string         `json:"id"`
	Name  string         `json:"name"`
	Input map[string]any `json:"input"`
}

// ErrIncomplete is a file missing a field Yume's type requires.
var ErrIncomplete = errors.New("a field Yume's AgentOutput requires is missing")

// Decode reads data as Yume does: an error when it is not JSON, or lacks
// a field the type requires (ErrIncomplete).
func Decode(data []byte) (Output, error) {
	var y Output
	if err := json.Unmarshal(data, &y); err != nil {
		return y, fmt.Errorf("not JSON Yume decodes: %w", err)
	}
	if !y.Complete() {
		return y, ErrIncomplete
	}
	return y, nil
}

// Complete reports whether every field Yume's type requires is there.
func (y *Output) Complete() bool {
	s, r := y.Session, y.Result
	if s == nil || s.ID == nil || s.History == nil || s.Usage == nil || s.Usage.InputTokens == nil || s.Usage.OutputTokens == nil ||
		r == nil || r.Success == nil || r.DurationMs == nil || r.NumTurns == nil || y.Timestamp == nil {
		return false
	}
	for _, h := range *s.History {
		if h.Role == nil {
			return false
		}
	}
	return true
}

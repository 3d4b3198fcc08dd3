package emit

import "encoding/json"

// Block is one content block of a stream-json message: text (Text), a
// tool_use (ID, Name, Input) or a tool_result (ToolUseID, Content,
// IsError). It is the Anthropic message content that Claude Code writes
// (its project JSONL, its -p stream) and that yume-cli writes in turn, so
// every reader of such a stream decodes this one type: the transcript and
// the JSON mode of Claude Code, the session store's tap, a background
// agent's recorder, the trace page and the golden files. The flat
// protocol's text, tool_use and tool_result lines carry the same fields at
// the top level.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// InputObject is a tool_use's input as an object (nil when it is not one).
func (b *Block) InputObject() map[string]any {
	var m map[string]any
	if json.Unmarshal(b.Input, &m) != nil {
		return nil
	}
	return m
}

// ContentString is the block's content when it is a string (a tool
// result's output, a flat text line's words).
func (b *Block) ContentString() (string, bool) {
	if len(b.Content) == 0 || b.Content[0] != '"' {
		return "", false
	}
	var s string
	return s, json.Unmarshal(b.Content, &s) == nil
}

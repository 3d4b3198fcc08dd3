package providers

import "encoding/json"

// Claude Code's message blocks and usage, declared once: its project JSONL
// (the transcript, claude_transcript.go) and `claude -p --output-format
// stream-json` (structured's translator, which adds a faster decoder of
// the same types) carry the same Anthropic API message content.

// ClaudeBlock is one block of a message's content: text, a tool_use (ID,
// Name, Input) or a tool_result (ToolUseID, Content, IsError).
type ClaudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// ClaudeUsage is a model request's tokens, as Claude reports them.
type ClaudeUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

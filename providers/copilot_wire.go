package providers

import "encoding/json"

// Copilot CLI's event line, declared once: `copilot -p --output-format
// json` prints these, and it keeps the same events in its session's
// events.jsonl. The transcript's parser (copilot_transcript.go) and the
// JSON mode's translator (structured) both decode them; structured adds
// a faster decoder for the same fields.

// CopilotEvent is one line. Data is decoded as CopilotData when its type
// is one that matters.
type CopilotEvent struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	// Ephemeral: a notice the CLI shows for a moment (session.info).
	Ephemeral bool `json:"ephemeral"`
	// SessionID and ExitCode are the JSON mode's closing "result" line's.
	SessionID string          `json:"sessionId"`
	ExitCode  *int            `json:"exitCode"`
	Data      json.RawMessage `json:"data"`
}

// CopilotData is an event's data, all types' fields in one.
type CopilotData struct {
	// session.start
	SessionID string `json:"sessionId"`
	// assistant.message_delta, assistant.message
	MessageID    string               `json:"messageId"`
	DeltaContent string               `json:"deltaContent"`
	Content      string               `json:"content"`
	ToolRequests []CopilotToolRequest `json:"toolRequests"`
	// tool.execution_start, tool.execution_complete
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Arguments  json.RawMessage `json:"arguments"` // CopilotArgs reads them
	Success    bool            `json:"success"`
	Result     *CopilotResult  `json:"result"`
	Error      json.RawMessage `json:"error"`
	// assistant.usage (older releases' JSON mode)
	InputTokens      int `json:"inputTokens"`
	OutputTokens     int `json:"outputTokens"`
	CacheReadTokens  int `json:"cacheReadTokens"`
	CacheWriteTokens int `json:"cacheWriteTokens"`
	// session.usage_record (the transcript's)
	Usage *CopilotUsage `json:"usage"`
	// session.error: "Authentication failed with provider at … (HTTP
	// 401). Check your COPILOT_PROVIDER_API_KEY…"; session.info, .warning
	Message   string `json:"message"`
	ErrorType string `json:"errorType"`
	// model.call_failure: the status of a failed model request, and which
	// retry it was (0: the first try)
	StatusCode   int `json:"statusCode"`
	RetryAttempt int `json:"retryAttempt"`
}

// CopilotToolRequest is one tool call of an assistant.message. Arguments
// are an object, or a custom (freeform) tool's text such as apply_patch's:
// CopilotArgs reads both.
type CopilotToolRequest struct {
	ToolCallID string          `json:"toolCallId"`
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
}

// CopilotResult is a finished tool's result.
type CopilotResult struct {
	Content json.RawMessage `json:"content"`
}

// CopilotUsage is one model request's tokens (input counts the cached).
type CopilotUsage struct {
	InputTokens      int     `json:"inputTokens"`
	OutputTokens     int     `json:"outputTokens"`
	CacheReadTokens  int     `json:"cacheReadTokens"`
	CacheWriteTokens int     `json:"cacheWriteTokens"`
	Cost             float64 `json:"cost"`
}

// CopilotArgs reads a tool request's arguments: an object, or the text of
// a custom (freeform) tool such as apply_patch, as {"input": text}.
func CopilotArgs(raw json.RawMessage) map[string]any {
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

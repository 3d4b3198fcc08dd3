package emit

// The shapes of the lines Writer emits. Field order follows what Claude
// Code prints (and docs/protocol.md shows); encoding/json keeps struct order.

// head is embedded first in every line so that "type" leads the object.
type head struct {
	Type string `json:"type"`
}

func (h head) eventType() string { return h.Type }

// eventType names the event v for error messages.
func eventType(v any) string {
	if t, ok := v.(interface{ eventType() string }); ok {
		return t.eventType()
	}
	return "unknown"
}

type initLine struct {
	Type           string   `json:"type"`
	Subtype        string   `json:"subtype"`
	SessionID      string   `json:"session_id"`
	Model          string   `json:"model,omitempty"`
	Cwd            string   `json:"cwd,omitempty"`
	PermissionMode string   `json:"permissionMode"`
	Tools          []string `json:"tools"`
	// YumeMode says how yume-cli drives the provider (pty, json, acp);
	// Yume ignores fields it does not know.
	YumeMode string `json:"yume_mode,omitempty"`
	UUID     string `json:"uuid"`
}

func (l initLine) eventType() string { return "system/init" }

// systemLine is system/error and system/notice.
type systemLine struct {
	head
	Subtype   string `json:"subtype"`
	Message   string `json:"message"`
	SessionID string `json:"session_id"`
	UUID      string `json:"uuid"`
}

// sessionLine announces a new session id (system/session_id).
type sessionLine struct {
	head
	Subtype   string `json:"subtype"`
	SessionID string `json:"session_id"`
	UUID      string `json:"uuid"`
}

// messageLine is a Claude assistant or user line.
type messageLine struct {
	head
	Message         any     `json:"message"`
	ParentToolUseID *string `json:"parent_tool_use_id"` // always null: no subagents
	SessionID       string  `json:"session_id"`
	UUID            string  `json:"uuid"`
}

type assistantMessage struct {
	ID         string  `json:"id"`
	Type       string  `json:"type"` // "message"
	Role       string  `json:"role"` // "assistant"
	Model      string  `json:"model"`
	Content    []any   `json:"content"`
	StopReason *string `json:"stop_reason"` // always null
	// Usage is the model request's tokens where the provider reports them
	// with the message (MessageUsage); left out where it does not. The
	// turn's usage is result.usage.
	Usage *Usage `json:"usage,omitempty"`
}

type userMessage struct {
	Role    string            `json:"role"` // "user"
	Content []toolResultBlock `json:"content"`
}

type textBlock struct {
	Type string `json:"type"` // "text"
	Text string `json:"text"`
}

type toolUseBlock struct {
	Type  string `json:"type"` // "tool_use"
	ID    string `json:"id"`
	Name  string `json:"name"`
	Input any    `json:"input"`
}

type toolResultBlock struct {
	Type      string `json:"type"` // "tool_result"
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	IsError   bool   `json:"is_error"`
}

type textLine struct {
	head
	Content string `json:"content"`
	UUID    string `json:"uuid"`
}

type toolUseLine struct {
	head
	ID    string `json:"id"`
	Name  string `json:"name"`
	Input any    `json:"input"`
	UUID  string `json:"uuid"`
}

type toolResultLine struct {
	head
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	IsError   bool   `json:"is_error"`
	UUID      string `json:"uuid"`
}

type permissionLine struct {
	head
	RequestID string            `json:"request_id"`
	Request   permissionRequest `json:"request"`
	UUID      string            `json:"uuid"`
}

type permissionRequest struct {
	Subtype   string `json:"subtype"` // "can_use_tool"
	ToolName  string `json:"tool_name"`
	Input     any    `json:"input"`
	ToolUseID string `json:"tool_use_id"`
}

// usageLine is the flat live-progress event; its counts are top-level
// fields, not a "usage" object, so Yume's backend does not add them up.
type usageLine struct {
	head
	InputTokens  int    `json:"input_tokens"`
	OutputTokens int    `json:"output_tokens"`
	UUID         string `json:"uuid"`
}

// bareLine is interrupt and message_stop; the uuid keeps repeated ones
// from being dropped as duplicates.
type bareLine struct {
	head
	UUID string `json:"uuid"`
}

type resultLine struct {
	head
	Subtype           string   `json:"subtype"`
	IsError           bool     `json:"is_error"`
	SessionID         string   `json:"session_id"`
	DurationMS        int64    `json:"duration_ms"`
	NumTurns          *int     `json:"num_turns,omitempty"`
	Result            string   `json:"result"`
	TotalCostUSD      *float64 `json:"total_cost_usd,omitempty"`
	Usage             *Usage   `json:"usage,omitempty"`
	PermissionDenials []denial `json:"permission_denials"`
	Errors            []string `json:"errors,omitempty"`
	UUID              string   `json:"uuid"`
}

// denial is one entry of result.permission_denials.
type denial struct {
	ToolName  string `json:"tool_name"`
	ToolUseID string `json:"tool_use_id"`
	ToolInput any    `json:"tool_input"`
}

package providers

// opencode's (and Kilo's) message part, declared once: `NAME run --format
// json` prints one a line (structured's translator), and the TUI's server
// and `NAME export` give a session's messages as lists of them (the
// transcript, opencode_export.go).

// OpenCodePart is one part of a message: text, a tool call, a step's end.
type OpenCodePart struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	Text      string `json:"text"`
	Synthetic bool   `json:"synthetic"` // text the TUI added (an attached file)
	Ignored   bool   `json:"ignored"`
	Time      *struct {
		End int64 `json:"end"`
	} `json:"time"`
	Tool   string             `json:"tool"`
	CallID string             `json:"callID"`
	State  *OpenCodeToolState `json:"state"`
	// Tokens and Cost are a step's end's (step-finish): one model request.
	Tokens *OpenCodeTokens `json:"tokens"`
	Cost   float64         `json:"cost"`
}

// OpenCodeToolState is a tool call's state: its status (pending, running,
// completed, error), input, output or error.
type OpenCodeToolState struct {
	Status string         `json:"status"`
	Input  map[string]any `json:"input"`
	Output string         `json:"output"`
	Error  string         `json:"error"`
}

// OpenCodeTokens are a model request's tokens: Input leaves out the
// cache's reads and writes, as Claude's does.
type OpenCodeTokens struct {
	Input  int `json:"input"`
	Output int `json:"output"`
	Cache  struct {
		Read  int `json:"read"`
		Write int `json:"write"`
	} `json:"cache"`
}

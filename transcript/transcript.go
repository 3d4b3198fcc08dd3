// Package transcript follows a coding CLI's own record of a session: the
// JSONL file it appends to while the session runs (Claude Code's project
// transcript, Codex's rollout, Copilot's session events, Gemini's chat
// log). The screen of a TUI says when something happens; the record says
// what: the exact command of a tool call, all of its output, the end of
// the turn. Providers parse their own format into Events (see providers).
package transcript

import "github.com/yume-cli/yume-cli/internal/unwrap"

// Kind says what an Event is.
type Kind int

const (
	// Text is assistant text.
	Text Kind = iota + 1
	// ToolCall is a tool call with its complete input, before it runs.
	ToolCall
	// ToolResult is a tool call's output.
	ToolResult
	// TurnEnd says the model finished the turn.
	TurnEnd
	// Session names the provider's own session id.
	Session
	// Prompt is a user prompt the program recorded (Text): a turn started,
	// or an old one was recorded again (a resumed session).
	Prompt
	// ModelError is an error of the model's service the program recorded
	// (Text: its words, e.g. "API Error: 429 …"), not an answer.
	ModelError
)

var kindNames = [...]string{"", "text", "tool_call", "tool_result", "turn_end", "session", "prompt", "model_error"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Event is one thing the provider recorded.
type Event struct {
	Kind Kind
	// ID is the provider's tool call id (ToolCall, ToolResult).
	ID string
	// Name and Input are the call in Claude's vocabulary (Bash{command},
	// Write{file_path,content}, …): providers map their own.
	Name  string
	Input map[string]any
	// Also are more changes of the same call (a patch that edits several
	// files): each is reported as a tool_use of its own.
	Also []Call
	// Output and IsError are a ToolResult's. Refused marks the result
	// of a call the program did not run because it was denied (its own
	// words for a rejection): any other result of a denied call means it
	// ran.
	Output  string
	IsError bool
	Refused bool
	// Text is assistant text, or the text of a Prompt.
	Text string
	// Session is the provider's session id.
	Session string
}

// Call is a tool call in Claude's words.
type Call struct {
	Name  string
	Input map[string]any
}

// Parser turns one complete line of a record into events. A parser may
// keep state between lines (a record that rewrites an entry in place).
type Parser func(line []byte) []Event

// Source is a record being followed.
type Source interface {
	// Poll returns the events recorded since the last call; none, with a
	// nil error, while the record does not exist yet.
	Poll() ([]Event, error)
	// Path is the file being read ("" until it is found).
	Path() string
}

// Wrapper is a Source that adds to another (the recording of its reads).
// The driver finds the optional abilities of the source under it (how
// long a question waits for it, whether it was read anew) through Unwrap,
// so a wrapper never hides them.
type Wrapper interface {
	Unwrap() Source
}

// As returns the first source in s's chain of wrappers that is a T.
func As[T any](s Source) (T, bool) { return unwrap.As[T](s) }

// Package transcript follows a coding CLI's transcript, its own log of a
// session: the JSONL file it appends to while the session runs (Claude
// Code's project transcript, Codex's rollout, Copilot's session events,
// Gemini's chat log). The screen of a TUI says when something happens;
// the transcript says what: the exact command of a tool call, all of its
// output, the end of the turn. Providers parse their own format into
// Events (see providers).
package transcript

import (
	"strconv"
	"time"

	"github.com/yume-cli/yume-cli/internal/unwrap"
)

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
	// Prompt is a user prompt the program logged (Text): a turn started,
	// or an old one was logged again (a resumed session).
	Prompt
	// ModelError is an error of the model's service the program logged
	// (Text: its words, e.g. "API Error: 429 …"), not an answer.
	ModelError
	// Tokens is the tokens of one model request the program logged
	// (Usage; ID names the request: a transcript that writes one request's
	// tokens more than once counts them once, the last as written).
	Tokens
)

var kindNames = [...]string{"", "text", "tool_call", "tool_result", "turn_end", "session", "prompt", "model_error", "tokens"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Event is one thing the provider logged.
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
	// Usage is a Tokens event's tokens, and a Text event's where the
	// transcript has them with the text (its model request's).
	Usage *Usage
	// At is when the program wrote the event, where the transcript says
	// (zero where it does not): a resumed session's transcript holds its
	// earlier runs' requests too.
	At time.Time
}

// Usage is the tokens of a model request in Claude's split: Input leaves
// out the prompt tokens read from the cache (CacheRead) and written to it
// (CacheWrite), so the three add up to the whole prompt. CostUSD is what
// the program priced it at (0: unknown).
type Usage struct {
	Input, Output, CacheRead, CacheWrite int
	CostUSD                              float64
}

// SplitUsage is a usage the OpenAI and Gemini way, prompt counting the
// cached tokens too, in Claude's split (Input never below 0).
func SplitUsage(prompt, output, cacheRead, cacheWrite int) *Usage {
	return &Usage{Input: max(prompt-cacheRead-cacheWrite, 0), Output: output, CacheRead: cacheRead, CacheWrite: cacheWrite}
}

// Tally adds up the Tokens events of a run or a turn: each request's last
// report counts, and (Since set) a request logged before Since is an
// earlier run's. The zero value is ready to use.
type Tally struct {
	Since time.Time
	by    map[string]Usage
	order []string
}

// Add counts e if it is a Tokens event of the run.
func (t *Tally) Add(e Event) {
	if e.Kind != Tokens || e.Usage == nil || !e.At.IsZero() && !t.Since.IsZero() && e.At.Before(t.Since) {
		return
	}
	if t.by == nil {
		t.by = map[string]Usage{}
	}
	if _, ok := t.by[e.ID]; !ok || e.ID == "" {
		t.order = append(t.order, e.ID)
	}
	if e.ID == "" {
		e.ID = "#" + strconv.Itoa(len(t.order))
		t.order[len(t.order)-1] = e.ID
	}
	t.by[e.ID] = *e.Usage
}

// Sum is the tokens counted; ok is false when there were none.
func (t *Tally) Sum() (sum Usage, ok bool) {
	for _, id := range t.order {
		u := t.by[id]
		sum.Input += u.Input
		sum.Output += u.Output
		sum.CacheRead += u.CacheRead
		sum.CacheWrite += u.CacheWrite
		sum.CostUSD += u.CostUSD
	}
	return sum, len(t.order) > 0
}

// Reset forgets what was counted (a new turn); Since stays.
func (t *Tally) Reset() { t.by, t.order = nil, nil }

// Call is a tool call in Claude's words.
type Call struct {
	Name  string
	Input map[string]any
}

// Parser turns one complete line of a transcript into events. A parser may
// keep state between lines (a transcript that rewrites an entry in place).
type Parser func(line []byte) []Event

// Source is a transcript being followed.
type Source interface {
	// Poll returns the events logged since the last call; none, with a
	// nil error, while the transcript does not exist yet.
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

// Starting is a Source that learns when the program first wrote to its
// terminal: the program's start is behind it.
type Starting interface {
	ProgramDrew()
}

// Searching is a Source that searches for its session among others (a TUI
// that shares its store with other runs): its Path names the search until
// SessionFound.
type Searching interface {
	SessionFound() bool
}

// As returns the first source in s's chain of wrappers that is a T.
func As[T any](s Source) (T, bool) { return unwrap.As[T](s) }

package background

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/emit"
)

// Recorder reads yume-cli's own event stream, one JSON line per Write as
// the emitter writes them (either protocol), and keeps what an agent's
// AgentOutput holds: the history as the stream shows it, the usage its
// results report, the turns. Given a progress writer, it says how the
// agent is getting on there, as Yume's shim did on stderr: a progress
// line when the agent starts, at each turn (a model response after the
// last tool results), at each tool call, and at the end.
type Recorder struct {
	mu       sync.Mutex
	progress io.Writer // nil: no progress lines
	now      func() time.Time

	history []Message
	// inTurn: assistant output came since the last tool result; the
	// history's last assistant entry takes what follows.
	inTurn bool
	turns  int
	// turnTokens are the tokens of the current turn's request, as its
	// messages report them; doneTokens those of the turns before, since
	// the last result; usageSeen the last usage line's count (the turn so
	// far, where the protocol says it).
	turnTokens, doneTokens, usageSeen int
	usage                             Usage
	results                           int
	numTurns                          int
	failed                            bool
	errText                           string
}

// NewRecorder starts a recorder; progress (nil: none) gets its progress
// lines, each written whole in one Write.
func NewRecorder(progress io.Writer) *Recorder {
	return &Recorder{progress: progress, now: time.Now}
}

// maxKept bounds a text or tool result the history keeps: its head and
// tail, with a note of what was cut (the stream holds it whole).
const maxKept = 16 << 10

// Prompt records the user's prompt of a turn that starts (the stream does
// not carry it).
func (r *Recorder) Prompt(text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if text != "" {
		r.history = append(r.history, Message{Role: "user", Content: keep(text)})
		r.inTurn = false
	}
}

// Write implements io.Writer; it never fails (the stream is what counts).
func (r *Recorder) Write(p []byte) (int, error) {
	for _, line := range bytes.Split(p, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			r.line(line)
		}
	}
	return len(p), nil
}

type streamLine struct {
	Type    string          `json:"type"`
	Subtype string          `json:"subtype"`
	Message json.RawMessage `json:"message"`
	emit.Block
	Usage    *emit.Usage `json:"usage"`
	IsError  bool        `json:"is_error"`
	NumTurns int         `json:"num_turns"`
	Result   string      `json:"result"`
	Errors   []string    `json:"errors"`
	// The flat protocol's usage line.
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

type streamMessage struct {
	Content []emit.Block `json:"content"`
	Usage   *emit.Usage  `json:"usage"`
}

func (r *Recorder) line(b []byte) {
	var l streamLine
	if json.Unmarshal(b, &l) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch l.Type {
	case "system":
		switch l.Subtype {
		case "init":
			r.say("starting")
		case "error":
			if msg := messageText(l.Message); msg != "" {
				r.history = append(r.history, Message{Role: "system", Content: keep(msg)})
			}
		}
	case "assistant", "user":
		var m streamMessage
		if json.Unmarshal(l.Message, &m) != nil {
			return
		}
		if l.Type == "assistant" && m.Usage != nil {
			r.turnTokensSeen(m.Usage.Total())
		}
		for _, bl := range m.Content {
			r.block(bl)
		}
	case "text", "tool_use", "tool_result": // the flat protocol
		bl := l.Block
		bl.Type, bl.IsError = l.Type, l.IsError // the line's own fields take these keys
		r.block(bl)
	case "usage": // the tokens of the turn so far
		r.usageSeen = l.InputTokens + l.OutputTokens
	case "result":
		r.result(l)
	}
}

// messageText is a system line's message (a string there).
func messageText(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s) // Best effort: not a string, no text.
	return s
}

// turnTokensSeen records the usage of the current turn's request; the
// messages of one request all carry the same.
func (r *Recorder) turnTokensSeen(n int) {
	if n > 0 {
		r.turnTokens = n
	}
}

func (r *Recorder) block(b emit.Block) {
	switch b.Type {
	case "text":
		text := b.Text
		if s, ok := b.ContentString(); ok && text == "" {
			text = s
		}
		if text == "" {
			return
		}
		if r.startTurn() {
			r.say("thinking")
		}
		last := &r.history[len(r.history)-1]
		if last.Content != "" && !strings.HasSuffix(last.Content, "\n") {
			last.Content += "\n"
		}
		last.Content = keep(last.Content + text)
	case "tool_use":
		r.startTurn()
		last := &r.history[len(r.history)-1]
		input := b.InputObject()
		last.ToolCalls = append(last.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Input: input})
		r.say(action(b.Name, input))
	case "tool_result":
		s, _ := b.ContentString()
		r.history = append(r.history, Message{Role: "tool", Content: keep(s), ToolCallID: b.ToolUseID, IsError: b.IsError})
		r.endTurn()
	}
}

// startTurn makes sure the history ends with this turn's assistant entry;
// it reports whether a new turn began.
func (r *Recorder) startTurn() bool {
	if r.inTurn && len(r.history) > 0 && r.history[len(r.history)-1].Role == "assistant" {
		return false
	}
	r.history = append(r.history, Message{Role: "assistant"})
	if r.inTurn {
		return false // the same turn, after a system message
	}
	r.inTurn = true
	r.turns++
	return true
}

// endTurn closes the turn at its tool results: its request's tokens are
// counted.
func (r *Recorder) endTurn() {
	if r.inTurn {
		r.doneTokens += r.turnTokens
		r.turnTokens = 0
	}
	r.inTurn = false
}

func (r *Recorder) result(l streamLine) {
	r.endTurn()
	r.doneTokens, r.usageSeen = 0, 0 // counted from here by the results' usage
	r.results++
	r.numTurns += l.NumTurns
	if u := l.Usage; u != nil {
		r.usage.InputTokens += u.InputTokens
		r.usage.OutputTokens += u.OutputTokens
		r.usage.CacheReadTokens += u.CacheReadInputTokens
		r.usage.CacheCreationTokens += u.CacheCreationInputTokens
	}
	r.failed = l.IsError
	if l.IsError {
		r.errText = l.Result
		if r.errText == "" && len(l.Errors) > 0 {
			r.errText = strings.Join(l.Errors, "; ")
		}
	}
	if l.IsError {
		r.say("failed")
	} else {
		r.say("completed")
	}
}

// tokensUsed is every token counted so far: the results' usage, and
// since the last result what the messages or a usage line reported.
func (r *Recorder) tokensUsed() int {
	return r.usage.Total() + max(r.doneTokens+r.turnTokens, r.usageSeen)
}

// say writes a progress line, if progress is wanted. The caller holds r.mu.
func (r *Recorder) say(action string) {
	if r.progress == nil {
		return
	}
	line, _ := marshal(struct {
		Type          string `json:"type"`
		TurnCount     int    `json:"turn_count"`
		CurrentAction string `json:"current_action"`
		TokensUsed    int    `json:"tokens_used"`
		Timestamp     int64  `json:"timestamp"`
	}{"progress", r.turns, action, r.tokensUsed(), r.now().UnixMilli()})
	_, _ = r.progress.Write(line) // Best effort: progress is a courtesy.
}

// marshal is v as one JSON line, with <, > and & as they are (the
// commands they are in are read by people).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return b.Bytes(), err
}

// action says what a tool call does, in a few words: its name and the
// command, file, pattern or address it works on (first line, shortened).
func action(name string, input map[string]any) string {
	for _, k := range []string{"command", "file_path", "path", "notebook_path", "pattern", "url", "query", "description"} {
		if s, ok := input[k].(string); ok && strings.TrimSpace(s) != "" {
			s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
			return name + ": " + shorten(s, 120)
		}
	}
	return name
}

func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// keep is the head and tail of a long text.
func keep(s string) string {
	if len(s) <= maxKept {
		return s
	}
	head, tail := s[:maxKept/2], s[len(s)-maxKept/2:]
	for !utf8.ValidString(head) && len(head) > 0 {
		head = head[:len(head)-1]
	}
	for !utf8.ValidString(tail) && len(tail) > 0 {
		tail = tail[1:]
	}
	return head + "\n… [yume-cli: " + strconv.Itoa(len(s)-len(head)-len(tail)) + " bytes not kept] …\n" + tail
}

// Output is the AgentOutput of the run so far: the session id given, the
// history, the usage; success as the caller knows it (the process's exit),
// which a failed result also makes false, and took, the run's duration.
func (r *Recorder) Output(session string, success bool, took time.Duration, errText string) AgentOutput {
	r.mu.Lock()
	defer r.mu.Unlock()
	turns := r.numTurns
	if turns < r.turns {
		turns = r.turns
	}
	success = success && !r.failed
	if errText == "" && !success {
		errText = r.errText
	}
	if success {
		errText = ""
	}
	history := make([]Message, len(r.history))
	copy(history, r.history)
	return AgentOutput{
		Session: OutputSession{ID: session, History: history, Usage: r.usage},
		Result: OutputResult{Success: success, DurationMs: took.Milliseconds(), NumTurns: turns,
			Error: errText},
		Timestamp: r.now().UnixMilli(),
	}
}

// Unsent records the prompt of a run that stopped before it went out
// (a refusal, an error before the provider started): first in the
// history, before what the stream said of the stop.
func (r *Recorder) Unsent(text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if text != "" {
		r.history = append([]Message{{Role: "user", Content: keep(text)}}, r.history...)
	}
}

// Said reports whether the history holds a prompt.
func (r *Recorder) Said() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.history {
		if m.Role == "user" {
			return true
		}
	}
	return false
}

// Results is how many results the stream had.
func (r *Recorder) Results() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.results
}

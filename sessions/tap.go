package sessions

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/yume-cli/yume-cli/emit"
)

// maxKept bounds a tool result or text kept in the history: its head and
// tail, with a note of what was cut (the stream already redacted it).
const maxKept = 8 << 10

// Tap reads yume-cli's own event stream, one JSON line per Write as the
// emitter writes them, and keeps what a conversation's history needs: the
// assistant's text, the tool calls with their inputs and their results,
// and the turn's usage.
type Tap struct {
	mu      sync.Mutex
	entries []Entry
	usage   Usage
	// OnResult, if set, runs after each result line (outside the tap's
	// lock): a persistent session stores each turn as it ends.
	OnResult func()
}

// Write implements io.Writer; it never fails (the stream is what counts).
func (t *Tap) Write(p []byte) (int, error) {
	for _, line := range bytes.Split(p, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 && t.line(line) && t.OnResult != nil {
			t.OnResult()
		}
	}
	return len(p), nil
}

type tapLine struct {
	Type    string `json:"type"`
	Message *struct {
		Content []emit.Block `json:"content"`
	} `json:"message"`
	emit.Block
	Usage *Usage `json:"usage"`
}

// line keeps what b holds; it reports whether b was a result.
func (t *Tap) line(b []byte) bool {
	var l tapLine
	if json.Unmarshal(b, &l) != nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch l.Type {
	case "assistant", "user":
		if l.Message != nil {
			for _, bl := range l.Message.Content {
				t.block(bl)
			}
		}
	case "text", "tool_use", "tool_result": // the flat protocol
		t.block(l.Block)
	case "result":
		if l.Usage != nil {
			t.usage.InputTokens += l.Usage.InputTokens
			t.usage.OutputTokens += l.Usage.OutputTokens
		}
		return true
	}
	return false
}

func (t *Tap) block(b emit.Block) {
	now := time.Now().UTC()
	switch b.Type {
	case "text":
		text := b.Text
		if s, ok := b.ContentString(); ok && text == "" {
			text = s
		}
		t.entries = append(t.entries, Entry{Role: "assistant", Time: now, Text: keep(text)})
	case "tool_use":
		t.entries = append(t.entries, Entry{Role: "tool_use", Time: now, Tool: b.Name, Input: b.InputObject(), ID: b.ID})
	case "tool_result":
		s, _ := b.ContentString()
		t.entries = append(t.entries, Entry{Role: "tool_result", Time: now, ID: b.ToolUseID, Text: keep(s), IsError: b.IsError})
	}
}

// Take returns what the tap kept since the last Take.
func (t *Tap) Take() ([]Entry, Usage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, u := t.entries, t.usage
	t.entries, t.usage = nil, Usage{}
	return e, u
}

// keep is the head and tail of a long text.
func keep(s string) string {
	if len(s) <= maxKept {
		return s
	}
	head, tail := s[:maxKept/2], s[len(s)-maxKept/2:]
	return head + "\n… [yume-cli: " + strconv.Itoa(len(s)-maxKept) + " bytes not kept in the history] …\n" + tail
}

package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
)

// ReadHistory reads a conversation Yume hands over with --history-file: a
// session file of this store's schema, or its history array. Entries may
// also be Claude-style messages ({"role","content"} with a string or a
// list of text/tool_use/tool_result blocks), which are flattened.
func ReadHistory(path string) ([]Entry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--history-file: %w", err)
	}
	var raw []json.RawMessage
	var sess struct {
		History []json.RawMessage `json:"history"`
	}
	switch t := strings.TrimSpace(string(b)); {
	case strings.HasPrefix(t, "["):
		err = json.Unmarshal(b, &raw)
	case strings.HasPrefix(t, "{"):
		err = json.Unmarshal(b, &sess)
		raw = sess.History
	default:
		err = errors.New("not a JSON array or object")
	}
	if err != nil {
		return nil, fmt.Errorf("--history-file %s: %v: give a session file (yume-cli sessions show ID --json) or its history array", path, err)
	}
	var out []Entry
	for i, r := range raw {
		es, err := parseEntry(r)
		if err != nil {
			return nil, fmt.Errorf("--history-file %s: entry %d: %v", path, i+1, err)
		}
		out = append(out, es...)
	}
	return out, nil
}

// message is an entry in either shape.
type message struct {
	Entry
	Content json.RawMessage `json:"content"`
}

func parseEntry(r json.RawMessage) ([]Entry, error) {
	var m message
	if err := json.Unmarshal(r, &m); err != nil {
		return nil, err
	}
	if m.Role == "" {
		return nil, errors.New(`no "role"`)
	}
	if len(m.Content) == 0 || m.Text != "" {
		return []Entry{m.Entry}, nil
	}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		m.Entry.Text = s
		return []Entry{m.Entry}, nil
	}
	var blocks []emit.Block
	if err := json.Unmarshal(m.Content, &blocks); err != nil {
		return nil, fmt.Errorf(`"content" is neither text nor a list of blocks`)
	}
	var out []Entry
	for _, b := range blocks {
		switch b.Type {
		case "text":
			out = append(out, Entry{Role: m.Role, Time: m.Time, Text: b.Text})
		case "tool_use":
			out = append(out, Entry{Role: "tool_use", Time: m.Time, Tool: b.Name, Input: b.InputObject(), ID: b.ID})
		case "tool_result":
			var text string
			if json.Unmarshal(b.Content, &text) != nil {
				var parts []emit.Block
				_ = json.Unmarshal(b.Content, &parts) // Anything else is left empty.
				for _, p := range parts {
					text += p.Text
				}
			}
			out = append(out, Entry{Role: "tool_result", Time: m.Time, ID: b.ToolUseID, Text: text, IsError: b.IsError})
		}
	}
	return out, nil
}

// Context renders history for a provider session that has never seen it,
// in at most budget bytes: the newest turns whole, older ones cut, with a
// note of how many entries were left out. A turn starts at a user entry.
func Context(history []Entry, budget int) string {
	lines := make([]string, len(history))
	for i, e := range history {
		lines[i] = contextLine(e)
	}
	// Keep whole entries from the newest back while they fit; tool output
	// is the first thing to go long, so each line is bounded first.
	used, first := 0, len(lines)
	for i := len(lines) - 1; i >= 0; i-- {
		if used+len(lines[i])+1 > budget {
			break
		}
		used += len(lines[i]) + 1
		first = i
	}
	var b strings.Builder
	b.WriteString("[The conversation so far, from an earlier session; continue it.]\n")
	if first > 0 {
		fmt.Fprintf(&b, "[%d earlier entries left out for length.]\n", first)
	}
	for _, l := range lines[first:] {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString("[End of the earlier conversation.]")
	return b.String()
}

// maxContextLine bounds one entry in the context.
const maxContextLine = 2000

func contextLine(e Entry) string {
	var s string
	switch e.Role {
	case "tool_use":
		in, _ := json.Marshal(e.Input)
		s = "Tool call " + e.Tool + ": " + string(in)
	case "tool_result":
		s = "Tool result: " + e.Text
		if e.IsError {
			s = "Tool result (error or denied): " + e.Text
		}
	case "user":
		s = "User: " + e.Text
	case "assistant":
		s = "Assistant: " + e.Text
	default:
		s = e.Role + ": " + e.Text
	}
	if len(s) > maxContextLine {
		cut := maxContextLine - 40
		for cut > 0 && s[cut]&0xC0 == 0x80 { // keep UTF-8 whole
			cut--
		}
		s = s[:cut] + fmt.Sprintf(" […%d bytes cut]", len(s)-cut)
	}
	return s
}

// WithHistory is the first prompt of a provider session that does not
// know the conversation: the history as context, then the prompt.
func WithHistory(history []Entry, prompt string, budget int) string {
	if len(history) == 0 {
		return prompt
	}
	return Context(history, budget) + "\n\n" + prompt
}

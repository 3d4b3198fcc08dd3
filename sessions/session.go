// Package sessions is yume-cli's store of conversations, so that a chat
// keeps its memory across the processes Yume starts, one per message:
// ~/.yume/sessions/<provider>/<id>.json per session ($YUME_HOME moves
// ~/.yume) and, beside it, <id>.entry, the session's line in the list
// (its title, message count, update time). A turn writes its session's
// two files and nothing else, so its cost does not depend on how many
// sessions the store holds; `sessions list` reads every entry. Writes are
// atomic (a temp file, fsync for the session file, rename) and serialised
// by a lock file, so two yume-cli processes never lose a turn; an entry
// that is missing, unreadable or older than its session file (a writer
// killed between the two) is made again from the session file by List; a
// corrupt session file is reported and left as it is. The whole-store
// index.json of earlier versions is replaced by entries on the first List.
package sessions

import (
	"errors"
	"fmt"
	"time"
)

// Session is one conversation.
type Session struct {
	ID       string    `json:"id"`
	Provider string    `json:"provider"`
	Model    string    `json:"model,omitempty"`
	Cwd      string    `json:"cwd,omitempty"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	// Mode is how the provider was driven: pty, json or acp.
	Mode string `json:"mode,omitempty"`
	// Handle is the provider's own session id: what resumes it.
	Handle   string         `json:"handle,omitempty"`
	History  []Entry        `json:"history"`
	Usage    Usage          `json:"usage"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Entry is one thing that happened in the conversation.
type Entry struct {
	// Role is user, assistant, tool_use or tool_result.
	Role string    `json:"role"`
	Time time.Time `json:"time,omitempty"`
	Text string    `json:"text,omitempty"`
	// Tool, Input and ID are a tool call's (tool_use) or the id it answers
	// (tool_result); IsError marks a failed or denied call.
	Tool    string         `json:"tool,omitempty"`
	Input   map[string]any `json:"input,omitempty"`
	ID      string         `json:"id,omitempty"`
	IsError bool           `json:"is_error,omitempty"`
}

// Usage adds up a session's tokens.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// IndexEntry is a session's line in the index.
type IndexEntry struct {
	ID           string    `json:"id"`
	Provider     string    `json:"provider"`
	Model        string    `json:"model,omitempty"`
	Cwd          string    `json:"cwd,omitempty"`
	Title        string    `json:"title,omitempty"`
	Updated      time.Time `json:"updated"`
	MessageCount int       `json:"message_count"`
}

// Title is the first line of the session's first prompt, shortened.
func (s *Session) Title() string {
	for _, e := range s.History {
		if e.Role == "user" && e.Text != "" {
			t := e.Text
			for i, r := range t {
				if r == '\n' {
					t = t[:i]
					break
				}
			}
			if r := []rune(t); len(r) > 80 {
				t = string(r[:79]) + "…"
			}
			return t
		}
	}
	return ""
}

func (s *Session) index() IndexEntry {
	n := 0
	for _, e := range s.History {
		if e.Role == "user" || e.Role == "assistant" {
			n++
		}
	}
	return IndexEntry{ID: s.ID, Provider: s.Provider, Model: s.Model, Cwd: s.Cwd, Title: s.Title(), Updated: s.Updated, MessageCount: n}
}

// ErrNotFound is returned for a session id the store does not have.
var ErrNotFound = errors.New("no such session")

// CorruptError is a session file that cannot be read: it is left as it is.
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("session file %s is corrupt (%v); it is left as it is: move it away to start over", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

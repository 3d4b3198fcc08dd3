package providers

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/yume-cli/yume-cli/transcript"
)

// opencode and Kilo keep their sessions in a SQLite database; `NAME export
// SESSION` prints one session as JSON (the TUI's server gives the same
// messages: opencode_server.go): {info, messages:[{info, parts}]},
// each message's info with its role, times (ms) and, for an assistant
// step, finish ("tool-calls" while the turn goes on, "stop" at its end)
// and its model request's tokens and cost;
// its parts the text, and each tool call with its state: status
// (pending, running: input known, asked about or running; completed:
// output; error: the error, such as a rejection), input and output.
// The whole session is printed every time: openCodeSeen remembers what
// was reported.

// openCodeExport is the part of an export yume-cli reads.
type openCodeExport struct {
	Info struct {
		ID        string `json:"id"`
		Directory string `json:"directory"`
		Time      struct {
			Created int64 `json:"created"`
			Updated int64 `json:"updated"`
		} `json:"time"`
	} `json:"info"`
	Messages []struct {
		Info struct {
			ID     string `json:"id"`
			Role   string `json:"role"`
			Finish string `json:"finish"`
			Time   struct {
				Created   int64 `json:"created"`
				Completed int64 `json:"completed"`
			} `json:"time"`
			// Tokens and Cost are an assistant step's: one model
			// request, input without the cache's tokens.
			Tokens *OpenCodeTokens `json:"tokens"`
			Cost   float64         `json:"cost"`
			// Error is a step the model's service failed (name
			// "APIError", data.message and data.statusCode).
			Error *struct {
				Name string `json:"name"`
				Data struct {
					Message    string `json:"message"`
					StatusCode int    `json:"statusCode"`
				} `json:"data"`
			} `json:"error"`
		} `json:"info"`
		Parts []OpenCodePart `json:"parts"`
	} `json:"messages"`
}

// userText is a user message's own text: its text parts, without the
// synthetic ones the TUI adds (an attached file's contents).
func userText(parts []OpenCodePart) string {
	var text []string
	for _, p := range parts {
		if p.Type == "text" && !p.Synthetic {
			text = append(text, p.Text)
		}
	}
	return strings.Join(text, "\n")
}

// openCodeSeen is what has been reported of a session, across exports.
type openCodeSeen struct {
	// since: messages created before it (ms) are an earlier run's, not
	// reported (a resumed session holds its earlier turns).
	since    int64
	reported map[string]bool // "prompt:", "text:", "call:", "result:", "end:" + id
	lastEnd  string          // the key of the last turn end reported
}

// holdEnd takes the turn's end out of evs, to be reported again by a
// later read (the program is not at rest yet).
func (s *openCodeSeen) holdEnd(evs []transcript.Event) []transcript.Event {
	out := evs[:0]
	for _, e := range evs {
		if e.Kind != transcript.TurnEnd {
			out = append(out, e)
		}
	}
	delete(s.reported, s.lastEnd)
	return out
}

// parseOpenCodeExport decodes an export (anything before its opening
// brace, such as a notice, is skipped).
func parseOpenCodeExport(b []byte) (*openCodeExport, error) {
	i := bytes.IndexByte(b, '{')
	if i < 0 {
		return nil, errors.New("no JSON in the export")
	}
	var x openCodeExport
	if err := json.Unmarshal(b[i:], &x); err != nil {
		return nil, err
	}
	if x.Info.ID == "" {
		return nil, errors.New("the export names no session")
	}
	return &x, nil
}

// events are what the export holds that s has not reported yet, in the
// session's order: prompts, finished texts, calls once their input is
// known, their results once they ended, and the end of a turn (an
// assistant step that finished for another reason than to call tools).
func (s *openCodeSeen) events(x *openCodeExport) []transcript.Event {
	if s.reported == nil {
		s.reported = map[string]bool{}
	}
	var out []transcript.Event
	add := func(key string, e transcript.Event) {
		if !s.reported[key] {
			s.reported[key] = true
			out = append(out, e)
		}
	}
	for _, m := range x.Messages {
		if m.Info.Time.Created < s.since {
			continue
		}
		if m.Info.Role == "user" {
			add("prompt:"+m.Info.ID, transcript.Event{Kind: transcript.Prompt, Text: userText(m.Parts)})
			continue
		}
		for _, p := range m.Parts {
			switch {
			case p.Type == "text" && !p.Synthetic && !p.Ignored && p.Text != "" && p.Time != nil && p.Time.End > 0:
				add("text:"+p.ID, transcript.Event{Kind: transcript.Text, Text: p.Text})
			case p.Type == "tool" && p.State != nil && p.CallID != "":
				out = append(out, s.call(p)...)
			}
		}
		if t := m.Info.Tokens; m.Info.Role == "assistant" && m.Info.Time.Completed > 0 && t != nil && t.Input+t.Output+t.Cache.Read > 0 {
			add("tokens:"+m.Info.ID, transcript.Event{Kind: transcript.Tokens, ID: m.Info.ID,
				Usage: &transcript.Usage{Input: t.Input, Output: t.Output, CacheRead: t.Cache.Read, CacheWrite: t.Cache.Write, CostUSD: m.Info.Cost}})
		}
		if e := m.Info.Error; m.Info.Role == "assistant" && e != nil && (e.Name == "APIError" || e.Data.StatusCode != 0) {
			text := e.Name + ": " + e.Data.Message
			if e.Data.StatusCode != 0 {
				text += fmt.Sprintf(" (HTTP %d)", e.Data.StatusCode)
			}
			add("error:"+m.Info.ID, transcript.Event{Kind: transcript.ModelError, Text: text})
		}
		if m.Info.Role == "assistant" && m.Info.Time.Completed > 0 && m.Info.Finish != "tool-calls" {
			add("end:"+m.Info.ID, transcript.Event{Kind: transcript.TurnEnd})
			s.lastEnd = "end:" + m.Info.ID
		}
	}
	return out
}

// call is a tool part's call (once its input is known: it is asked about,
// runs, or ran) and result (once it ended).
func (s *openCodeSeen) call(p OpenCodePart) []transcript.Event {
	st := p.State
	var out []transcript.Event
	switch st.Status {
	case "running", "completed", "error":
	default:
		return nil // pending: its input may still be arriving
	}
	if !s.reported["call:"+p.CallID] {
		s.reported["call:"+p.CallID] = true
		name, input := openCodeTool(p.Tool, st.Input)
		out = append(out, transcript.Event{Kind: transcript.ToolCall, ID: p.CallID, Name: name, Input: input})
	}
	if st.Status == "running" || s.reported["result:"+p.CallID] {
		return out
	}
	s.reported["result:"+p.CallID] = true
	res := transcript.Event{Kind: transcript.ToolResult, ID: p.CallID, Output: st.Output}
	if st.Status == "error" {
		res.Output, res.IsError = st.Error, true
	}
	return append(out, res)
}

// openCodeListed is one row of `NAME session list --format json` (or of
// the server's list).
type openCodeListed struct {
	ID        string `json:"id"`
	Directory string `json:"directory"`
	Created   int64  `json:"created"`
}

// parseOpenCodeList reads `session list --format json`: none when it
// printed nothing (no session at all).
func parseOpenCodeList(list []byte) ([]openCodeListed, error) {
	if len(bytes.TrimSpace(list)) == 0 {
		return nil, nil
	}
	i := bytes.IndexByte(list, '[')
	if i < 0 {
		return nil, errors.New("no JSON in the session list")
	}
	var rows []openCodeListed
	if err := json.Unmarshal(list[i:], &rows); err != nil {
		return nil, err
	}
	return rows, nil
}

// firstUserText is the text of the session's first user message ("" when
// it has none yet).
func firstUserText(x *openCodeExport) string {
	for _, m := range x.Messages {
		if m.Info.Role == "user" {
			return userText(m.Parts)
		}
	}
	return ""
}

// listedSince is the sessions of dir in rows created at or after since
// (ms), the first created first.
func listedSince(rows []openCodeListed, dir string, since int64) []openCodeListed {
	var found []openCodeListed
	for _, r := range rows {
		if r.Directory == dir && r.Created >= since {
			found = append(found, r)
		}
	}
	slices.SortStableFunc(found, func(a, b openCodeListed) int { return cmp.Compare(a.Created, b.Created) })
	return found
}

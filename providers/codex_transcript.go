package providers

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/kballard/go-shellquote"
	"github.com/yume-cli/yume-cli/transcript"
)

// Codex keeps a session's transcript as a rollout,
// $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl
// (CODEX_HOME defaults to ~/.codex): a session_meta line with the cwd,
// then response items — the model's messages, its function calls
// (exec_command with the exact command line, apply_patch with the patch)
// written before a question is drawn, their outputs — and a task_complete
// event when the turn ends. Codex picks the session id, so a new session's
// rollout is the newest one for our cwd started after the program.
func codexTranscript(l Launch) transcript.Source {
	home := l.Getenv("CODEX_HOME")
	if home == "" {
		home = filepath.Join(l.Getenv("HOME"), ".codex")
	}
	sessions := filepath.Join(home, "sessions")
	locate := func() (string, bool) {
		if l.Resume {
			return firstMatch(filepath.Join(sessions, "*", "*", "*", "rollout-*"+l.Session+".jsonl"))
		}
		var patterns []string
		for _, dir := range codexDayDirs(sessions, l.Started, time.Now(), time.Local, time.UTC) {
			patterns = append(patterns, filepath.Join(dir, "rollout-*.jsonl"))
		}
		return newestFor(patterns, l, codexCwd)
	}
	return transcript.NewTail(locate, ofRun(l, parseCodexTranscript))
}

// codexDayDirs are the directories, sessions/YYYY/MM/DD, where a rollout
// of a session begun between from and to is: Codex files a session under
// the day it began, in local time (UTC where it cannot read the offset),
// so each day in each of zones. Every day's directory ("*/*/*") was globbed, and
// each rollout ever written stat'ed, on every read until the session was
// found: a cost that grew with a person's history, in the first second.
// Past a week, or with no start time, every day's.
func codexDayDirs(sessions string, from, to time.Time, zones ...*time.Location) []string {
	if from.IsZero() || to.Sub(from) > 7*24*time.Hour {
		return []string{filepath.Join(sessions, "*", "*", "*")}
	}
	var dirs []string
	for _, loc := range zones {
		f, t := from.In(loc), to.In(loc)
		for day := time.Date(f.Year(), f.Month(), f.Day(), 0, 0, 0, 0, loc); !day.After(t); day = day.AddDate(0, 0, 1) {
			if dir := filepath.Join(sessions, day.Format("2006"), day.Format("01"), day.Format("02")); !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
		}
	}
	return dirs
}

// newestFor is the newest file matching one of patterns, modified since
// the program started, whose first line says cwd is l.Cwd.
func newestFor(patterns []string, l Launch, cwdOf func(first []byte) string) (string, bool) {
	var paths []string
	for _, pattern := range patterns {
		m, _ := filepath.Glob(pattern)
		paths = append(paths, m...)
	}
	type cand struct {
		path string
		mod  int64
	}
	var cs []cand
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && !fi.ModTime().Before(l.Started) {
			cs = append(cs, cand{p, fi.ModTime().UnixNano()})
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].mod > cs[j].mod })
	for _, c := range cs {
		if sameDir(cwdOf(firstLine(c.path)), l.Cwd) {
			return c.path, true
		}
	}
	return "", false
}

func firstLine(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	if sc.Scan() {
		return sc.Bytes()
	}
	return nil
}

func sameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 == nil && err2 == nil {
		return ra == rb
	}
	return filepath.Clean(a) == filepath.Clean(b)
}

func codexCwd(first []byte) string {
	var l struct {
		Type    string `json:"type"`
		Payload struct {
			Cwd string `json:"cwd"`
		} `json:"payload"`
	}
	if json.Unmarshal(first, &l) != nil || l.Type != "session_meta" {
		return ""
	}
	return l.Payload.Cwd
}

type codexRolloutLine struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Payload   struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		Name      string          `json:"name"`
		Arguments string          `json:"arguments"`
		Input     string          `json:"input"`
		CallID    string          `json:"call_id"`
		Output    json.RawMessage `json:"output"`
		// Error is task_complete's when the turn failed ("unexpected
		// status 401 Unauthorized: …", "exceeded retry limit, last
		// status: 429 Too Many Requests").
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
		Message string `json:"message"` // an error event's
		// Info is a token_count event's: the last request's tokens and
		// the session's so far (null in an event that only tells rate
		// limits).
		Info *struct {
			Total CodexTokens `json:"total_token_usage"`
			Last  CodexTokens `json:"last_token_usage"`
		} `json:"info"`
	} `json:"payload"`
}

// CodexTokens counts tokens the OpenAI way, input_tokens including the
// cached ones: declared once, the rollout's token_count events and `codex
// exec --json`'s turn.completed (structured) both carry it.
type CodexTokens struct {
	InputTokens           int `json:"input_tokens"`
	CachedInputTokens     int `json:"cached_input_tokens"`
	CacheWriteInputTokens int `json:"cache_write_input_tokens"`
	OutputTokens          int `json:"output_tokens"`
	TotalTokens           int `json:"total_tokens"`
}

// parseCodexTranscript reads one rollout line.
func parseCodexTranscript(line []byte) []transcript.Event {
	var l codexRolloutLine
	if json.Unmarshal(line, &l) != nil {
		return nil
	}
	p := l.Payload
	switch {
	case l.Type == "session_meta":
		return []transcript.Event{{Kind: transcript.Session, Session: p.ID}}
	case l.Type == "event_msg" && p.Type == "task_complete" && p.Error != nil && p.Error.Message != "":
		return []transcript.Event{{Kind: transcript.ModelError, Text: p.Error.Message}, {Kind: transcript.TurnEnd}}
	case l.Type == "event_msg" && p.Type == "task_complete":
		return []transcript.Event{{Kind: transcript.TurnEnd}}
	case l.Type == "event_msg" && (p.Type == "error" || p.Type == "stream_error") && p.Message != "":
		return []transcript.Event{{Kind: transcript.ModelError, Text: p.Message}}
	case l.Type == "event_msg" && p.Type == "token_count" && p.Info != nil && p.Info.Last.TotalTokens > 0:
		// One per model request, told again with each rate-limit update:
		// the session's running total names the request.
		t, last := p.Info.Total, p.Info.Last
		id := fmt.Sprintf("%d/%d/%d/%d", t.InputTokens, t.CachedInputTokens, t.OutputTokens, t.TotalTokens)
		return []transcript.Event{{Kind: transcript.Tokens, ID: id, At: stamp(l.Timestamp),
			Usage: transcript.SplitUsage(last.InputTokens, last.OutputTokens, last.CachedInputTokens, last.CacheWriteInputTokens)}}
	case l.Type != "response_item":
		return nil
	case p.Type == "message" && p.Role == "assistant":
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		_ = json.Unmarshal(p.Content, &blocks) // Not blocks: no text.
		var out []transcript.Event
		for _, b := range blocks {
			if b.Type == "output_text" && b.Text != "" {
				out = append(out, transcript.Event{Kind: transcript.Text, Text: b.Text})
			}
		}
		return out
	case p.Type == "function_call" || p.Type == "custom_tool_call":
		args := map[string]any{}
		if p.Arguments != "" {
			_ = json.Unmarshal([]byte(p.Arguments), &args) // Not an object: the raw input below.
		}
		if p.Input != "" {
			args["input"] = p.Input
		}
		return []transcript.Event{codexCall(p.CallID, p.Name, args)}
	case p.Type == "function_call_output" || p.Type == "custom_tool_call_output":
		out, failed := codexOutput(p.Output)
		// A command's output is after its exit code; Codex's own words are
		// the output when it ran nothing.
		refused := codexRefused.MatchString(out) && !strings.Contains(string(p.Output), "Process exited with code")
		return []transcript.Event{{Kind: transcript.ToolResult, ID: p.CallID, Output: out, IsError: failed || refused, Refused: refused}}
	}
	return nil
}

// codexCall maps Codex's tools to Claude's.
func codexCall(id, name string, a map[string]any) transcript.Event {
	e := transcript.Event{Kind: transcript.ToolCall, ID: id, Name: name, Input: a}
	switch name {
	case "exec_command", "shell", "local_shell", "container.exec":
		cmd := ""
		switch c := a["cmd"].(type) {
		case string:
			cmd = c
		}
		if cmd == "" {
			cmd = commandString(a["command"])
		}
		e.Name, e.Input = "Bash", map[string]any{"command": cmd}
		if j := str(a["justification"]); j != "" {
			e.Input["description"] = j
		}
	case "apply_patch":
		patch := str(a["input"])
		if patch == "" {
			patch = str(a["patch"])
		}
		if calls := PatchCalls(patch); len(calls) > 0 {
			e.Name, e.Input, e.Also = calls[0].Name, calls[0].Input, calls[1:]
		}
	case "update_plan":
		var items []any
		if plan, ok := a["plan"].([]any); ok {
			for _, it := range plan {
				if m, ok := it.(map[string]any); ok {
					items = append(items, map[string]any{"content": m["step"], "status": m["status"]})
				}
			}
		}
		e.Name, e.Input = "TodoWrite", map[string]any{"todos": Todos(items, "content")}
	}
	return e
}

// commandString is a command given as an argv list or a string, with a
// shell wrapper ("bash -lc '…'") taken off.
func commandString(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		var words []string
		for _, w := range c {
			words = append(words, str(w))
		}
		if len(words) == 3 && (words[1] == "-lc" || words[1] == "-c") && strings.HasSuffix(words[0], "sh") {
			return words[2]
		}
		return shellquote.Join(words...)
	}
	return ""
}

// codexOutput is a call's output without the header Codex puts on a
// command's ("Chunk ID: …", "Process exited with code N", "Output:"), and
// whether that header says it failed.
// codexRefused is Codex's result of a call it did not run because it was
// denied: "aborted by user" after Esc at its question (0.171 adds a
// "Wall time" line before it), "exec command rejected by user" after No.
// A command stopped while it ran says "aborted by user after 3.2s".
var codexRefused = lazyre.New(`(?m)^(?:aborted|(?:exec command )?rejected) by user\s*\z`)

func codexOutput(raw json.RawMessage) (out string, failed bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var o struct {
			Output string `json:"output"`
		}
		_ = json.Unmarshal(raw, &o) // Other shapes: no output.
		s = o.Output
	}
	i := strings.Index(s, "\nOutput:\n")
	if i < 0 || !strings.Contains(s[:i], "Process exited with code") {
		return s, false
	}
	head := s[:i]
	return s[i+len("\nOutput:\n"):], !strings.Contains(head, "Process exited with code 0\n") && !strings.HasSuffix(head, "Process exited with code 0")
}

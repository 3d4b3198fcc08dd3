package background

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
)

// progressLine mirrors a progress line as Yume's shim wrote it (Yume's
// AgentProgress, less last_update, which Yume stamps itself).
type progressLine struct {
	Type          string `json:"type"`
	TurnCount     *int   `json:"turn_count"`
	CurrentAction string `json:"current_action"`
	TokensUsed    *int   `json:"tokens_used"`
	Timestamp     int64  `json:"timestamp"`
}

func progressLines(t *testing.T, b []byte) []progressLine {
	t.Helper()
	var out []progressLine
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var p progressLine
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil || p.Type != "progress" || p.TurnCount == nil || p.TokensUsed == nil || p.Timestamp == 0 {
			t.Fatalf("progress line %q: %v", sc.Text(), err)
		}
		out = append(out, p)
	}
	return out
}

func actions(ps []progressLine) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.CurrentAction)
	}
	return out
}

// agentTurn is a turn as a provider's run writes it: text, a tool call,
// its result, more text and a result, with per-message usage as Claude
// Code reports it.
func agentTurn(t *testing.T, w *emit.Writer, failed bool) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Init("auto", []string{"Bash"}))
	w.MessageUsage(&emit.Usage{InputTokens: 100, OutputTokens: 10, CacheReadInputTokens: 1000})
	must(w.Text("Running it."))
	must(w.ToolUse("toolu_1", "Bash", map[string]any{"command": "go test ./...\necho done", "description": "tests"}))
	must(w.ToolResult("toolu_1", "ok  \tpkg\n", false))
	w.MessageUsage(&emit.Usage{InputTokens: 200, OutputTokens: 20, CacheReadInputTokens: 1000})
	must(w.ToolUse("toolu_2", "Read", map[string]any{"file_path": "/w/a.go"}))
	must(w.ToolResult("toolu_2", "package a", false))
	must(w.SystemError("yume-cli guard blocked rm -rf / (rule recursive-delete)"))
	w.MessageUsage(&emit.Usage{InputTokens: 50, OutputTokens: 5})
	must(w.Text("All done."))
	u := emit.Usage{InputTokens: 300, OutputTokens: 30, CacheReadInputTokens: 2000, CacheCreationInputTokens: 5}
	r := emit.Result{Text: "All done.", NumTurns: 3, Usage: &u}
	if failed {
		r = emit.Result{IsError: true, Errors: []string{"the model's service failed"}, NumTurns: 3, Usage: &u}
	}
	must(w.Result(r))
}

func TestRecorderHistoryAndProgress(t *testing.T) {
	var stdout, progress bytes.Buffer
	rec := NewRecorder(&progress)
	rec.now = func() time.Time { return time.UnixMilli(1700000000000) }
	w := emit.NewWriter(io.MultiWriter(&stdout, rec), emit.Config{SessionID: "agent-1"})
	rec.Prompt("fix the tests")
	agentTurn(t, w, false)
	out := rec.Output("agent-1", true, 1500*time.Millisecond, "")
	want := []Message{
		{Role: "user", Content: "fix the tests"},
		{Role: "assistant", Content: "Running it.", ToolCalls: []ToolCall{{ID: "toolu_1", Name: "Bash", Input: map[string]any{"command": "go test ./...\necho done", "description": "tests"}}}},
		{Role: "tool", Content: "ok  \tpkg\n", ToolCallID: "toolu_1"},
		{Role: "assistant", ToolCalls: []ToolCall{{ID: "toolu_2", Name: "Read", Input: map[string]any{"file_path": "/w/a.go"}}}},
		{Role: "tool", Content: "package a", ToolCallID: "toolu_2"},
		{Role: "system", Content: "yume-cli guard blocked rm -rf / (rule recursive-delete)"},
		{Role: "assistant", Content: "All done."},
	}
	got, _ := json.Marshal(out.Session.History)
	wanted, _ := json.Marshal(want)
	if string(got) != string(wanted) {
		t.Errorf("history\n%s\nwant\n%s", got, wanted)
	}
	if out.Session.ID != "agent-1" || out.Session.Usage != (Usage{InputTokens: 300, OutputTokens: 30, CacheReadTokens: 2000, CacheCreationTokens: 5}) {
		t.Errorf("session %+v", out.Session)
	}
	if out.Result != (OutputResult{Success: true, DurationMs: 1500, NumTurns: 3}) || out.Timestamp != 1700000000000 {
		t.Errorf("result %+v at %d", out.Result, out.Timestamp)
	}
	ps := progressLines(t, progress.Bytes())
	wantActions := []string{"starting", "thinking", "Bash: go test ./...", "Read: /w/a.go", "thinking", "completed"}
	if strings.Join(actions(ps), "|") != strings.Join(wantActions, "|") {
		t.Errorf("actions %q, want %q", actions(ps), wantActions)
	}
	turns, tokens := []int{}, []int{}
	for _, p := range ps {
		turns, tokens = append(turns, *p.TurnCount), append(tokens, *p.TokensUsed)
	}
	// Tokens: each request's once (the messages of one carry the same),
	// then the results' own count.
	if want := []int{0, 1, 1, 2, 3, 3}; !equal(turns, want) {
		t.Errorf("turn counts %v, want %v", turns, want)
	}
	if want := []int{0, 1110, 1110, 1110 + 1220, 1110 + 1220 + 55, 2335}; !equal(tokens, want) {
		t.Errorf("tokens %v, want %v", tokens, want)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRecorderFailedTurn(t *testing.T) {
	var progress bytes.Buffer
	rec := NewRecorder(&progress)
	w := emit.NewWriter(rec, emit.Config{})
	agentTurn(t, w, true)
	out := rec.Output("s", true, time.Second, "")
	if out.Result.Success || out.Result.Error != "the model's service failed" {
		t.Errorf("result %+v: a failed turn is no success", out.Result)
	}
	if out.Session.Usage.Total() == 0 {
		t.Errorf("a failed turn's usage is kept: %+v", out.Session.Usage)
	}
	if a := actions(progressLines(t, progress.Bytes())); a[len(a)-1] != "failed" {
		t.Errorf("last action %q", a[len(a)-1])
	}
	// The caller's own failure wins, with its words.
	if out := rec.Output("s", false, time.Second, "exit 1: the tree is held"); out.Result.Success || out.Result.Error != "exit 1: the tree is held" {
		t.Errorf("result %+v", out.Result)
	}
}

// The flat protocol's events make the same history.
func TestRecorderFlatProtocol(t *testing.T) {
	rec := NewRecorder(nil)
	w := emit.NewWriter(rec, emit.Config{Protocol: emit.Flat})
	rec.Prompt("go")
	agentTurn(t, w, false)
	out := rec.Output("s", true, 0, "")
	var roles []string
	for _, m := range out.Session.History {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "user,assistant,tool,assistant,tool,system,assistant" {
		t.Errorf("roles %v", roles)
	}
	if out.Session.Usage.OutputTokens != 30 || out.Result.NumTurns != 3 {
		t.Errorf("output %+v", out)
	}
}

func TestRecorderKeepsLongTextsShort(t *testing.T) {
	rec := NewRecorder(nil)
	w := emit.NewWriter(rec, emit.Config{})
	_ = w.Init("", nil)
	_ = w.ToolUse("t1", "Bash", map[string]any{"command": "seq 1 100000"})
	_ = w.ToolResult("t1", strings.Repeat("0123456789\n", 9000), false)
	got := rec.Output("s", true, 0, "").Session.History[1].Content
	if len(got) > maxKept+200 || !strings.Contains(got, "bytes not kept] …") || !strings.HasPrefix(got, "0123456789") {
		t.Errorf("kept %d bytes: %q…", len(got), got[:80])
	}
}

func TestRecorderNoProgressWriter(t *testing.T) {
	rec := NewRecorder(nil)
	if n, err := rec.Write([]byte("not json\n{\"type\":\"result\",\"num_turns\":2}\n")); n == 0 || err != nil {
		t.Errorf("write: %d %v", n, err)
	}
	if rec.Results() != 1 || rec.Output("s", true, 0, "").Result.NumTurns != 2 {
		t.Errorf("results %d", rec.Results())
	}
}

var errWrite = errors.New("write failed")

// A usage line (the turn so far) counts until the result does; a command
// keeps its < > & in the progress line.
func TestRecorderUsageLineAndPlainText(t *testing.T) {
	var progress bytes.Buffer
	rec := NewRecorder(&progress)
	w := emit.NewWriter(rec, emit.Config{})
	_ = w.Init("auto", nil)
	_ = w.ToolUse("t1", "Bash", map[string]any{"command": "make > log.txt && cat log.txt"})
	_ = w.ToolResult("t1", "ok", false)
	_ = w.Usage(700, 70)
	_ = w.Text("Done.")
	_ = w.Result(emit.Result{Text: "Done.", Usage: &emit.Usage{InputTokens: 800, OutputTokens: 80}})
	ps := progressLines(t, progress.Bytes())
	if !strings.Contains(progress.String(), `"current_action":"Bash: make > log.txt && cat log.txt"`) {
		t.Errorf("progress %s", progress.String())
	}
	if got := *ps[len(ps)-2].TokensUsed; got != 770 {
		t.Errorf("tokens before the result %d, want the usage line's 770", got)
	}
	if got := *ps[len(ps)-1].TokensUsed; got != 880 {
		t.Errorf("tokens at the result %d, want its 880", got)
	}
}

// A run that stopped before its prompt went out keeps it first.
func TestRecorderUnsent(t *testing.T) {
	rec := NewRecorder(nil)
	w := emit.NewWriter(rec, emit.Config{})
	_ = w.Fail(errors.New("the tree is held"))
	if rec.Said() {
		t.Fatal("said, before any prompt")
	}
	rec.Unsent("fix it")
	h := rec.Output("s", false, 0, "").Session.History
	if len(h) != 2 || h[0].Role != "user" || h[0].Content != "fix it" || h[1].Role != "system" || !rec.Said() {
		t.Errorf("history %+v", h)
	}
}

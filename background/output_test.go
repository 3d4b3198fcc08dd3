package background

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/internal/yumeagent"
)

// decodeYume decodes data as Yume's AgentOutput, failing on a missing
// required field.
func decodeYume(t *testing.T, data []byte) yumeagent.Output {
	t.Helper()
	y, err := yumeagent.Decode(data)
	if err != nil {
		t.Fatalf("%v:\n%s", err, data)
	}
	return y
}

func TestWriteOutputAsYumeReadsIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "agent-output", "nested")
	path := filepath.Join(dir, "agent-1.json")
	out := AgentOutput{
		Session: OutputSession{ID: "agent-1", History: []Message{
			{Role: "user", Content: "fix it"},
			{Role: "assistant", Content: "On it.", ToolCalls: []ToolCall{{ID: "t1", Name: "Bash", Input: map[string]any{"command": "ls"}}}},
			{Role: "tool", Content: "a.go", ToolCallID: "t1"},
		}, Usage: Usage{InputTokens: 12, OutputTokens: 3, CacheReadTokens: 100}},
		Result:    OutputResult{Success: true, DurationMs: 2500, NumTurns: 2},
		Timestamp: 1700000000000,
	}
	if err := WriteOutput(path, out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	y := decodeYume(t, data)
	if *y.Session.ID != "agent-1" || len(*y.Session.History) != 3 || *y.Session.Usage.InputTokens != 12 ||
		!*y.Result.Success || *y.Result.NumTurns != 2 || *y.Result.DurationMs != 2500 {
		t.Errorf("decoded %s", data)
	}
	h := (*y.Session.History)[1]
	if h.Content == nil || *h.Content != "On it." || len(h.ToolCalls) != 1 {
		t.Errorf("assistant entry %s", data)
	}
	if (*y.Session.History)[0].ToolCalls != nil || strings.Contains(string(data), `"toolCalls": null`) {
		t.Errorf("an entry without tool calls names none: %s", data)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("the folder holds %v: want the file alone (no temp file left)", ents)
	}
	if st, _ := os.Stat(path); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	// Written again, it is replaced whole.
	out.Result.Success = false
	if err := WriteOutput(path, out); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if y := decodeYume(t, data); *y.Result.Success {
		t.Errorf("not replaced: %s", data)
	}
}

// An output with nothing in it still has every field Yume reads: an
// empty history, zero usage.
func TestWriteOutputEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.json")
	if err := WriteOutput(path, AgentOutput{Session: OutputSession{ID: "x"}}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if y := decodeYume(t, data); len(*y.Session.History) != 0 || *y.Result.Success {
		t.Errorf("%s", data)
	}
}

func TestWriteOutputUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(filepath.Join(file, "out.json"), AgentOutput{}); err == nil || !strings.Contains(err.Error(), "--output-file") {
		t.Errorf("a folder that is a file: %v", err)
	}
}

package background

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// yumeAgentOutput mirrors Yume's TypeScript type, field for field
// (src/renderer/types/backgroundAgents.ts):
//
//	export interface AgentOutput {
//	  session: {
//	    id: string;
//	    history: Array<{ role: string; content?: string; toolCalls?: unknown[] }>;
//	    usage: { inputTokens: number; outputTokens: number };
//	  };
//	  result: { success: boolean; durationMs: number; numTurns: number };
//	  timestamp: number;
//	}
//
// Pointers tell a field that is there from one that is not: every field
// the type requires must be present with its JSON type.
type yumeAgentOutput struct {
	Session *struct {
		ID      *string `json:"id"`
		History *[]struct {
			Role      *string `json:"role"`
			Content   *string `json:"content"`
			ToolCalls []any   `json:"toolCalls"`
		} `json:"history"`
		Usage *struct {
			InputTokens  *float64 `json:"inputTokens"`
			OutputTokens *float64 `json:"outputTokens"`
		} `json:"usage"`
	} `json:"session"`
	Result *struct {
		Success    *bool    `json:"success"`
		DurationMs *float64 `json:"durationMs"`
		NumTurns   *float64 `json:"numTurns"`
	} `json:"result"`
	Timestamp *float64 `json:"timestamp"`
}

// DecodeYume decodes data as Yume's AgentOutput, failing on a missing
// required field.
func decodeYume(t *testing.T, data []byte) yumeAgentOutput {
	t.Helper()
	var y yumeAgentOutput
	if err := json.Unmarshal(data, &y); err != nil {
		t.Fatalf("not JSON Yume decodes: %v\n%s", err, data)
	}
	s, r := y.Session, y.Result
	if s == nil || s.ID == nil || s.History == nil || s.Usage == nil || s.Usage.InputTokens == nil || s.Usage.OutputTokens == nil ||
		r == nil || r.Success == nil || r.DurationMs == nil || r.NumTurns == nil || y.Timestamp == nil {
		t.Fatalf("a field Yume's AgentOutput requires is missing:\n%s", data)
	}
	for _, h := range *s.History {
		if h.Role == nil {
			t.Fatalf("a history entry without a role:\n%s", data)
		}
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

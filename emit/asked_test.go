package emit

import (
	"io"
	"testing"
)

// TestWaiting: the question an answer now would answer is the latest
// request whose tool_use has no result; OnAsk hears of each request.
func TestWaiting(t *testing.T) {
	var heard []string
	w := NewWriter(io.Discard, Config{OnAsk: func(a Asked) { heard = append(heard, a.ToolUseID) }})
	if _, ok := w.Waiting(); ok {
		t.Fatal("a question waits before any was asked")
	}
	for _, id := range []string{"toolu_a", "toolu_b"} {
		if err := w.ToolUse(id, "Bash", map[string]string{"command": "ls"}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.PermissionRequest(id, "Bash", map[string]string{"command": "ls"}); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		result string // the tool_use answered before looking
		want   string // "" = none waits
	}{
		{"", "toolu_b"},
		{"toolu_b", "toolu_a"},
		{"toolu_a", ""},
	}
	for _, s := range steps {
		if s.result != "" {
			if err := w.ToolResult(s.result, "", false); err != nil {
				t.Fatal(err)
			}
		}
		a, ok := w.Waiting()
		if got := map[bool]string{true: a.ToolUseID}[ok]; got != s.want {
			t.Errorf("after %q: waiting %q, want %q", s.result, got, s.want)
		}
	}
	if len(heard) != 2 || heard[0] != "toolu_a" || heard[1] != "toolu_b" {
		t.Errorf("OnAsk heard %v", heard)
	}
}

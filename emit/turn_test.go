package emit

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestResultShapes(t *testing.T) {
	tests := []struct {
		name string
		in   Result
		want map[string]any
	}{
		// Yume takes num_turns with no cache reads, and an empty result
		// with no usage, for a compaction (wrapperIntegration.ts).
		{"defaults", Result{}, map[string]any{
			"subtype": "success", "is_error": false, "num_turns": nil, "result": NoAnswerText, "total_cost_usd": nil,
			"usage": nil, "permission_denials": []any{}, "errors": nil,
		}},
		{"success with usage", Result{Text: "done", NumTurns: 3, CostUSD: Cost(0.25), Usage: &Usage{1, 2, 3, 4}}, map[string]any{
			"subtype": "success", "result": "done", "num_turns": 3.0, "total_cost_usd": 0.25,
			"usage": map[string]any{"input_tokens": 1.0, "output_tokens": 2.0, "cache_creation_input_tokens": 3.0, "cache_read_input_tokens": 4.0},
		}},
		{"error defaults", Result{IsError: true}, map[string]any{
			"subtype": "error_during_execution", "is_error": true,
			"errors": []any{"turn failed: error_during_execution"}, "result": "turn failed: error_during_execution",
		}},
		{"error with messages", Result{IsError: true, Subtype: "error_max_turns", Errors: []string{"a", "b"}}, map[string]any{
			"subtype": "error_max_turns", "errors": []any{"a", "b"}, "result": "a; b",
		}},
		{"negative counts clamp", Result{NumTurns: -1, Usage: &Usage{InputTokens: -3, OutputTokens: 1}, CostUSD: Cost(-1)}, map[string]any{
			"num_turns": nil, "total_cost_usd": 0.0,
			"usage": map[string]any{"input_tokens": 0.0, "output_tokens": 1.0, "cache_creation_input_tokens": 0.0, "cache_read_input_tokens": 0.0},
		}},
		// Yume takes input and output both 0 for a compaction: a usage
		// that says so is left out, whatever its cache counts.
		{"zero usage left out", Result{Text: "hi", Usage: &Usage{}}, map[string]any{"usage": nil}},
		{"zero input and output left out", Result{Text: "hi", Usage: &Usage{CacheReadInputTokens: 900}}, map[string]any{"usage": nil}},
		{"error with zero usage", Result{IsError: true, Errors: []string{"HTTP 429"}, Usage: &Usage{}}, map[string]any{"usage": nil, "total_cost_usd": nil}},
		{"only output", Result{Usage: &Usage{OutputTokens: 7}}, map[string]any{
			"usage": map[string]any{"input_tokens": 0.0, "output_tokens": 7.0, "cache_creation_input_tokens": 0.0, "cache_read_input_tokens": 0.0}}},
		{"compaction", Result{Usage: &Usage{}, Compacted: true}, map[string]any{
			"usage": map[string]any{"input_tokens": 0.0, "output_tokens": 0.0, "cache_creation_input_tokens": 0.0, "cache_read_input_tokens": 0.0}}},
		{"num_turns with cache reads", Result{Text: "x", NumTurns: 2, Usage: &Usage{InputTokens: 1, OutputTokens: 1, CacheReadInputTokens: 5}}, map[string]any{"num_turns": 2.0}},
		{"empty text with usage", Result{Usage: &Usage{InputTokens: 1, OutputTokens: 1}}, map[string]any{"result": ""}},
		{"known zero cost", Result{Text: "x", CostUSD: Cost(0)}, map[string]any{"total_cost_usd": 0.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, buf, _ := newTestWriter(Claude)
			if err := w.Result(tt.in); err != nil {
				t.Fatal(err)
			}
			lines := decodeLines(t, buf.Bytes())
			if tt.in.Compacted && len(lines) == 4 && lines[1]["subtype"] == "compact_boundary" {
				lines = append(lines[:1], lines[2:]...) // the compaction's own mark first
			}
			if len(lines) != 3 || lines[1]["type"] != "result" || lines[2]["type"] != "message_stop" {
				t.Fatalf("want init, result, message_stop; got %v", lines)
			}
			for k, v := range tt.want {
				if !reflect.DeepEqual(lines[1][k], v) {
					t.Errorf("%s = %#v, want %#v", k, lines[1][k], v)
				}
			}
			if lines[1]["session_id"] != "sess-test" {
				t.Errorf("session_id = %v", lines[1]["session_id"])
			}
			mustValidate(t, buf.Bytes())
		})
	}
}

func TestResultOncePerTurn(t *testing.T) {
	w, buf, clock := newTestWriter(Flat)
	w.persist = true // several turns: a persistent session
	clock.Advance(1500 * time.Millisecond)
	_ = w.Result(Result{})
	n := buf.Len()
	if err := w.Result(Result{}); !errors.Is(err, ErrTurnEnded) {
		t.Errorf("second Result err = %v, want ErrTurnEnded", err)
	}
	if buf.Len() != n {
		t.Error("second Result wrote something")
	}
	if !w.TurnEnded() {
		t.Error("TurnEnded() = false after Result")
	}
	if d := decodeLines(t, buf.Bytes())[1]["duration_ms"]; d != 1500.0 {
		t.Errorf("duration_ms = %v, want 1500", d)
	}

	// The next turn: denials and the clock start over.
	_ = w.ToolUse("toolu_x", "Bash", nil)
	_ = w.Deny("toolu_x", "Bash", nil, "") // between turns: belongs to the next one
	w.NewTurn()
	if w.TurnEnded() {
		t.Error("TurnEnded() = true after NewTurn")
	}
	clock.Advance(200 * time.Millisecond)
	if err := w.Result(Result{}); err != nil {
		t.Fatalf("Result after NewTurn: %v", err)
	}
	lines := decodeLines(t, buf.Bytes())
	last := lines[len(lines)-2]
	if last["duration_ms"] != 200.0 {
		t.Errorf("second turn duration_ms = %v, want 200", last["duration_ms"])
	}
	if fmt.Sprint(last["permission_denials"]) != "[map[tool_input:map[] tool_name:Bash tool_use_id:toolu_x]]" {
		t.Errorf("permission_denials = %v", last["permission_denials"])
	}
	if first := lines[1]["permission_denials"]; fmt.Sprint(first) != "[]" {
		t.Errorf("first turn's permission_denials = %v, want []", first)
	}
	mustValidate(t, buf.Bytes())
}

func TestNewTurnMidTurnDoesNothing(t *testing.T) {
	w, buf, _ := newTestWriter(Claude)
	_ = w.ToolUse("toolu_1", "Bash", nil)
	_ = w.Deny("toolu_1", "Bash", map[string]string{"command": "rm -rf /"}, "no")
	w.NewTurn()
	_ = w.Result(Result{})
	lines := decodeLines(t, buf.Bytes())
	denials, _ := lines[len(lines)-2]["permission_denials"].([]any)
	if len(denials) != 1 || get(denials[0], "tool_input", "command") != "rm -rf /" {
		t.Errorf("denial lost: %v", lines[len(lines)-2]["permission_denials"])
	}
	if got := toolResultOf(lines[2]); got["is_error"] != true || got["content"] != "no" {
		t.Errorf("deny tool_result = %v", got)
	}
	mustValidate(t, buf.Bytes())
}

func TestFail(t *testing.T) {
	secret := fake("sk-ant-api03-", 40, alnum)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"message", errors.New("gemini: not logged in"), "gemini: not logged in"},
		{"nil", nil, "unknown error"},
		{"redacted", fmt.Errorf("bad key %s", secret), "bad key [REDACTED:anthropic-key]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, buf, _ := newTestWriter(Claude)
			if err := w.Fail(tt.err); err != nil {
				t.Fatal(err)
			}
			if err := w.Fail(errors.New("again")); err != nil || strings.Contains(buf.String(), "again") {
				t.Errorf("Fail after the turn ended: err %v, output %s", err, buf.String())
			}
			lines := decodeLines(t, buf.Bytes())
			if len(lines) != 4 {
				t.Fatalf("want init, system error, result, message_stop; got %d lines", len(lines))
			}
			if lines[1]["subtype"] != "error" || lines[1]["message"] != tt.want {
				t.Errorf("system error = %v", lines[1])
			}
			if lines[2]["is_error"] != true || fmt.Sprint(lines[2]["errors"]) != "["+tt.want+"]" {
				t.Errorf("result = %v", lines[2])
			}
			mustValidate(t, buf.Bytes())
		})
	}
}

func TestGuard(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name     string
		fn       func(w *Writer) error
		wantErr  string
		isError  bool
		wantText string // in the output
	}{
		{"nil without result", func(w *Writer) error { return w.Text("hi") }, "", false, `"subtype":"success"`},
		{"nil with result", func(w *Writer) error { return w.Result(Result{Text: "mine"}) }, "", false, `"result":"mine"`},
		{"error", func(w *Writer) error { return boom }, "boom", true, `"errors":["boom"]`},
		{"error after result", func(w *Writer) error { _ = w.Result(Result{}); return boom }, "boom", false, `"subtype":"success"`},
		{"panic", func(w *Writer) error { panic("kaput") }, "internal error: kaput", true, `"errors":["internal error: kaput"]`},
		{"panic with error value", func(w *Writer) error { panic(boom) }, "internal error: boom", true, `internal error: boom`},
		{"panic after result", func(w *Writer) error { _ = w.Result(Result{}); panic("late") }, "internal error: late", false, `"subtype":"success"`},
	}
	for _, p := range protocols {
		for _, tt := range tests {
			t.Run(string(p)+"/"+tt.name, func(t *testing.T) {
				w, buf, _ := newTestWriter(p)
				err := Guard(w, func() error { return tt.fn(w) })
				if fmt.Sprint(err) != tt.wantErr && !(err == nil && tt.wantErr == "") {
					t.Errorf("Guard err = %v, want %q", err, tt.wantErr)
				}
				mustValidate(t, buf.Bytes())
				out := buf.String()
				if strings.Count(out, `"type":"result"`) != 1 || !strings.Contains(out, tt.wantText) {
					t.Errorf("output lacks one result with %s:\n%s", tt.wantText, out)
				}
				if strings.Contains(out, `"is_error":true`) != tt.isError {
					t.Errorf("is_error in output = %v, want %v", !tt.isError, tt.isError)
				}
				if strings.Contains(out, "goroutine") || strings.Contains(out, ".go:") {
					t.Errorf("a stack trace reached stdout:\n%s", out)
				}
			})
		}
	}
}

func TestGuardStackOnlyWithDebug(t *testing.T) {
	for _, debug := range []string{"", "1"} {
		t.Run("YUME_DEBUG="+debug, func(t *testing.T) {
			t.Setenv("YUME_DEBUG", debug)
			var stderr bytes.Buffer
			old := debugOut
			debugOut = &stderr
			defer func() { debugOut = old }()
			w, _, _ := newTestWriter(Claude)
			_ = Guard(w, func() error { panic("kaput") })
			if got := strings.Contains(stderr.String(), "goroutine"); got != (debug == "1") {
				t.Errorf("stack on stderr = %v with YUME_DEBUG=%q:\n%s", got, debug, stderr.String())
			}
		})
	}
}

// TestNothingAfterMessageStop: once a spawn-per-turn session's turn ended,
// nothing more reaches stdout (a late approval's complaint goes to Late);
// a persistent session still says things between turns.
func TestNothingAfterMessageStop(t *testing.T) {
	for _, persistent := range []bool{false, true} {
		var out, late bytes.Buffer
		w := NewWriter(&out, Config{Persistent: persistent, Late: &late})
		_ = w.Init("default", nil)
		_ = w.Result(Result{})
		if err := w.SystemError("no tool_use is waiting for approval with id \"toolu_x\""); err != nil {
			t.Fatal(err)
		}
		lines := strings.Count(out.String(), "\n")
		switch {
		case !persistent && (lines != 3 || !strings.Contains(late.String(), "toolu_x")):
			t.Errorf("spawn-per-turn: %d stdout lines (want 3: init, result, message_stop), late %q", lines, late.String())
		case persistent && lines != 4:
			t.Errorf("persistent: %d stdout lines, want 4 (the error between turns)", lines)
		}
	}
}

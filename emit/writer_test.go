package emit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unicode/utf8"
)

func TestInitFirstAndOnce(t *testing.T) {
	w, buf, _ := newTestWriter(Claude)
	if err := w.Init("auto", []string{"Bash"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Init("auto", []string{"Bash"}); err == nil {
		t.Error("second Init succeeded; want an error")
	}
	lines := decodeLines(t, buf.Bytes())
	if len(lines) != 1 {
		t.Fatalf("got %d lines, want 1", len(lines))
	}
	want := map[string]any{"type": "system", "subtype": "init", "session_id": "sess-test", "model": "test-model", "cwd": "/repo", "permissionMode": "auto"}
	for k, v := range want {
		if lines[0][k] != v {
			t.Errorf("init %s = %v, want %v", k, lines[0][k], v)
		}
	}
	if fmt.Sprint(lines[0]["tools"]) != "[Bash]" {
		t.Errorf("init tools = %v, want [Bash]", lines[0]["tools"])
	}
}

func TestImplicitInit(t *testing.T) {
	w, buf, _ := newTestWriter(Flat)
	if err := w.Notice("starting"); err != nil {
		t.Fatal(err)
	}
	if err := w.Init("auto", nil); err == nil {
		t.Error("Init after another event succeeded; want an error")
	}
	lines := decodeLines(t, buf.Bytes())
	if len(lines) != 2 || lines[0]["subtype"] != "init" || lines[0]["permissionMode"] != "default" {
		t.Fatalf("want a default init before the notice, got %v", lines)
	}
	if tools, ok := lines[0]["tools"].([]any); !ok || len(tools) != 0 {
		t.Errorf("implicit init tools = %#v, want []", lines[0]["tools"])
	}
}

func TestEqualEventsGetDistinctLines(t *testing.T) {
	// Yume drops a line identical to a recent one.
	for _, p := range protocols {
		w, buf, _ := newTestWriter(p)
		for range 3 {
			_ = w.Text("same")
			_ = w.Interrupt()
		}
		seen := map[string]bool{}
		for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			if seen[l] {
				t.Errorf("%s: duplicate line %s", p, l)
			}
			seen[l] = true
		}
	}
}

func TestDefaultsWithZeroConfig(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, Config{})
	if !strings.HasPrefix(w.SessionID(), "sess-") {
		t.Errorf("default session id %q", w.SessionID())
	}
	_ = w.Text("hi")
	lines := decodeLines(t, buf.Bytes())
	if _, has := lines[0]["model"]; has {
		t.Error("init reports an empty model")
	}
	if got := get(lines[1], "message", "model"); got != defaultModel {
		t.Errorf("assistant model = %v, want %q", got, defaultModel)
	}
}

func TestToolUseNeedsIDAndName(t *testing.T) {
	w, buf, _ := newTestWriter(Claude)
	if err := w.ToolUse("", "Bash", nil); err == nil {
		t.Error("ToolUse without id succeeded")
	}
	if err := w.ToolUse("toolu_1", "", nil); err == nil {
		t.Error("ToolUse without name succeeded")
	}
	if err := w.ToolResult("", "x", false); err == nil {
		t.Error("ToolResult without id succeeded")
	}
	if buf.Len() != 0 {
		t.Errorf("rejected calls wrote %q", buf.String())
	}
}

func TestNilInputIsEmptyObject(t *testing.T) {
	for _, p := range protocols {
		w, buf, _ := newTestWriter(p)
		_ = w.ToolUse("toolu_1", "LS", nil)
		lines := decodeLines(t, buf.Bytes())
		if in, ok := toolUseOf(lines[1])["input"].(map[string]any); !ok || len(in) != 0 {
			t.Errorf("%s: nil input written as %#v, want {}", p, toolUseOf(lines[1])["input"])
		}
	}
}

func TestUnencodableInputWritesNothing(t *testing.T) {
	w, buf, _ := newTestWriter(Claude)
	err := w.ToolUse("toolu_1", "Bash", map[string]any{"command": make(chan int)})
	if err == nil || !strings.Contains(err.Error(), "cannot encode") {
		t.Fatalf("err = %v, want a cannot-encode error", err)
	}
	if buf.Len() != 0 {
		t.Errorf("wrote %q", buf.String())
	}
}

func TestPermissionRequest(t *testing.T) {
	for _, p := range protocols {
		w, buf, _ := newTestWriter(p)
		_ = w.ToolUse("toolu_1", "Bash", map[string]string{"command": "npm test"})
		req, err := w.PermissionRequest("toolu_1", "Bash", map[string]string{"command": "npm test"})
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := w.ToolUseForRequest(req); !ok || got != "toolu_1" {
			t.Errorf("ToolUseForRequest(%q) = %q, %v", req, got, ok)
		}
		if _, ok := w.ToolUseForRequest("req_unknown"); ok {
			t.Error("unknown request id resolved")
		}
		line := decodeLines(t, buf.Bytes())[2]
		if line["type"] != "control_request" || line["request_id"] != req ||
			get(line, "request", "subtype") != "can_use_tool" || get(line, "request", "tool_name") != "Bash" ||
			get(line, "request", "tool_use_id") != "toolu_1" || get(line, "request", "input", "command") != "npm test" {
			t.Errorf("%s: control_request = %v", p, line)
		}
	}
}

func TestSessionChanged(t *testing.T) {
	w, buf, _ := newTestWriter(Claude)
	if err := w.SessionChanged(""); err == nil {
		t.Error("empty session id accepted")
	}
	_ = w.SessionChanged("sess-new")
	_ = w.Text("after")
	lines := decodeLines(t, buf.Bytes())
	if lines[1]["subtype"] != "session_id" || lines[1]["session_id"] != "sess-new" {
		t.Errorf("session_id line = %v", lines[1])
	}
	if lines[2]["session_id"] != "sess-new" || w.SessionID() != "sess-new" {
		t.Errorf("later line carries %v, SessionID() = %q", lines[2]["session_id"], w.SessionID())
	}
}

func TestUsageClampsNegative(t *testing.T) {
	w, buf, _ := newTestWriter(Claude)
	_ = w.Usage(-5, 7)
	line := decodeLines(t, buf.Bytes())[1]
	if line["type"] != "usage" || line["input_tokens"] != 0.0 || line["output_tokens"] != 7.0 {
		t.Errorf("usage line = %v", line)
	}
	if _, has := line["usage"]; has {
		t.Error("flat usage event has a top-level usage object")
	}
	n := buf.Len()
	_ = w.Usage(0, 0)
	_ = w.Usage(-1, 0)
	if buf.Len() != n {
		t.Errorf("a usage of no tokens was written: %s", buf.Bytes()[n:])
	}
}

func TestSystemMessagesRedacted(t *testing.T) {
	w, buf, _ := newTestWriter(Claude)
	secret := fake("ghp_", 36, alnum)
	_ = w.Notice("auto-approved: git push https://x:" + secret + "@github.com/o/r")
	_ = w.SystemError("auth failed for " + secret)
	if strings.Contains(buf.String(), secret) {
		t.Errorf("secret leaked: %s", buf.String())
	}
	lines := decodeLines(t, buf.Bytes())
	if lines[1]["subtype"] != "notice" || lines[2]["subtype"] != "error" {
		t.Errorf("subtypes %v / %v", lines[1]["subtype"], lines[2]["subtype"])
	}
}

func TestInvalidUTF8Everywhere(t *testing.T) {
	bad := "bad\xff\xfe"
	for _, p := range protocols {
		var buf bytes.Buffer
		w := NewWriter(&buf, Config{Protocol: p, Model: bad, Cwd: bad, SessionID: "s" + bad})
		_ = w.Init(bad, []string{bad})
		_ = w.Text(bad)
		_ = w.ToolUse("toolu_"+bad, bad, map[string]any{bad: bad, "raw": jsonRaw(`"` + bad + `"`)})
		_, _ = w.PermissionRequest("toolu_"+bad, bad, struct{ Command string }{bad})
		_ = w.ToolResult("toolu_"+bad, bad, false)
		_ = w.Deny("toolu_"+bad, bad, nil, bad)
		_ = w.Notice(bad)
		_ = w.Result(Result{IsError: true, Text: bad, Errors: []string{bad}, Subtype: "error_" + bad})
		if !utf8.Valid(buf.Bytes()) {
			t.Errorf("%s: output is not valid UTF-8", p)
		}
		mustValidate(t, buf.Bytes())
	}
}

// flushCounter counts Flush calls and what was written before each.
type flushCounter struct {
	bytes.Buffer
	flushes int
}

func (f *flushCounter) Flush() error { f.flushes++; return nil }

func TestFlushAfterEveryLine(t *testing.T) {
	var under bytes.Buffer
	bw := bufio.NewWriterSize(&under, 1<<20)
	w := NewWriter(bw, Config{})
	_ = w.Text("one")
	if n := strings.Count(under.String(), "\n"); n != 2 {
		t.Errorf("after one Text the underlying writer has %d lines, want 2 (init + text)", n)
	}
	fc := &flushCounter{}
	w = NewWriter(fc, Config{})
	_ = w.Text("one")
	_ = w.Usage(1, 2)
	if fc.flushes != 3 {
		t.Errorf("Flush called %d times for 3 lines", fc.flushes)
	}
}

// failingWriter accepts limit bytes, then fails with EPIPE.
type failingWriter struct {
	limit, writes int
}

func (f *failingWriter) Write(p []byte) (int, error) {
	f.writes++
	if len(p) > f.limit {
		return 0, syscall.EPIPE
	}
	f.limit -= len(p)
	return len(p), nil
}

func TestWriteErrorIsReturnedAndSticky(t *testing.T) {
	fw := &failingWriter{limit: 1000}
	w := NewWriter(fw, Config{})
	_ = w.Init("default", nil)
	err := w.Text(strings.Repeat("x", 2000))
	if !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("err = %v, want EPIPE", err)
	}
	writes := fw.writes
	fw.limit = 1 << 20
	if err := w.Notice("later"); !errors.Is(err, syscall.EPIPE) {
		t.Errorf("later call err = %v, want the first EPIPE again", err)
	}
	if fw.writes != writes {
		t.Error("writer kept writing after stdout failed")
	}
	if err := w.Result(Result{}); !errors.Is(err, syscall.EPIPE) || !w.TurnEnded() {
		t.Errorf("Result err = %v, TurnEnded = %v", err, w.TurnEnded())
	}
}

func TestConcurrentUse(t *testing.T) {
	for _, p := range protocols {
		w, buf, _ := newTestWriter(p)
		_ = w.Init("auto", []string{"Bash"})
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 25 {
					id := fmt.Sprintf("toolu_%d_%d", g, i)
					_ = w.ToolUse(id, "Bash", map[string]string{"command": "true"})
					_, _ = w.PermissionRequest(id, "Bash", nil)
					_ = w.Text(fmt.Sprintf("goroutine %d step %d", g, i))
					if i%5 == 0 {
						_ = w.Deny(id, "Bash", nil, "")
					} else {
						_ = w.ToolResult(id, "ok", false)
					}
					_ = w.Usage(i+1, i)
				}
			}()
		}
		wg.Wait()
		_ = w.Result(Result{})
		mustValidate(t, buf.Bytes())
		if n := strings.Count(buf.String(), "\n"); n != 1+8*25*5+2 {
			t.Errorf("%s: %d lines, want %d", p, n, 1+8*25*5+2)
		}
	}
}

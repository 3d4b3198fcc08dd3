package emit

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit/emittest"
)

// fakeClock is a Config.Now that moves only when told to.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newTestWriter returns a Writer on a buffer with a fixed session id and
// a fake clock.
func newTestWriter(p Protocol) (*Writer, *bytes.Buffer, *fakeClock) {
	var buf bytes.Buffer
	clock := newFakeClock()
	w := NewWriter(&buf, Config{Protocol: p, SessionID: "sess-test", Model: "test-model", Cwd: "/repo", Now: clock.Now})
	return w, &buf, clock
}

// decodeLines parses every line of out as a JSON object.
func decodeLines(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("line is not JSON (%v): %.200s", err, l)
		}
		lines = append(lines, m)
	}
	return lines
}

// mustValidate fails the test with every problem Validate finds.
func mustValidate(t *testing.T, out []byte) {
	t.Helper()
	if errs := emittest.Validate(out); len(errs) > 0 {
		var b strings.Builder
		for _, e := range errs {
			b.WriteString("\n  " + e.Error())
		}
		t.Fatalf("stream fails Validate:%s\nstream:\n%.3000s", b.String(), out)
	}
}

// get walks a decoded JSON value by object keys and array indexes.
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// textOf returns the text a text event carries in either protocol.
func textOf(line map[string]any) string {
	if line["type"] == "text" {
		s, _ := line["content"].(string)
		return s
	}
	s, _ := get(line, "message", "content", 0, "text").(string)
	return s
}

// toolResultOf returns the tool_result (flat line or claude block).
func toolResultOf(line map[string]any) map[string]any {
	if line["type"] == "tool_result" {
		return line
	}
	m, _ := get(line, "message", "content", 0).(map[string]any)
	return m
}

// toolUseOf returns the tool_use (flat line or claude block).
func toolUseOf(line map[string]any) map[string]any {
	if line["type"] == "tool_use" {
		return line
	}
	m, _ := get(line, "message", "content", 0).(map[string]any)
	return m
}

var protocols = []Protocol{Claude, Flat}

// jsonRaw is a json.RawMessage literal for tests.
func jsonRaw(s string) json.RawMessage { return json.RawMessage(s) }

package emit

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkLineSizes fails if any line of out reaches MaxLine.
func checkLineSizes(t *testing.T, out []byte) {
	t.Helper()
	for i, l := range bytes.SplitAfter(out, []byte("\n")) {
		if len(l) >= MaxLine {
			t.Errorf("line %d is %d bytes (limit %d)", i+1, len(l), MaxLine)
		}
	}
}

func TestLongTextIsSplit(t *testing.T) {
	inputs := map[string]string{
		"ascii":     strings.Repeat("0123456789abcdef\n", 15000),
		"multibyte": strings.Repeat("世界🎉 ", 40000),
		"escapes":   strings.Repeat("\"\\\x01\u2028", 30000),
		"one line":  strings.Repeat("x", 350000),
	}
	for _, p := range protocols {
		for name, in := range inputs {
			t.Run(string(p)+"/"+name, func(t *testing.T) {
				w, buf, _ := newTestWriter(p)
				if err := w.Text(in); err != nil {
					t.Fatal(err)
				}
				checkLineSizes(t, buf.Bytes())
				lines := decodeLines(t, buf.Bytes())[1:]
				if len(lines) < 2 {
					t.Fatalf("%d-byte text written as %d event(s)", len(in), len(lines))
				}
				var got strings.Builder
				for _, l := range lines {
					got.WriteString(textOf(l))
				}
				if got.String() != in {
					t.Error("the chunks do not add up to the original text")
				}
				if !bytes.Contains(buf.Bytes(), []byte(`"type":"`+map[Protocol]string{Claude: "assistant", Flat: "text"}[p])) {
					t.Error("wrong event type")
				}
			})
		}
	}
}

var omittedNote = regexp.MustCompile(`… \[yume-cli: (\d+) bytes of output omitted\] …`)

func TestToolOutputIsCapped(t *testing.T) {
	tests := []struct {
		name    string
		content string
		capped  bool
	}{
		{"small", "ok\n", false},
		{"just under the cap", strings.Repeat("a", 90_000), false},
		{"over the cap", strings.Repeat("line of output\n", 20000), true},
		{"escapes double the size", strings.Repeat(`"`, 80_000), true},
		{"control bytes take six", strings.Repeat("\x01", 40_000), true},
	}
	for _, p := range protocols {
		for _, tt := range tests {
			t.Run(string(p)+"/"+tt.name, func(t *testing.T) {
				w, buf, _ := newTestWriter(p)
				_ = w.ToolUse("toolu_1", "Bash", map[string]string{"command": "cat big"})
				if err := w.ToolResult("toolu_1", tt.content, false); err != nil {
					t.Fatal(err)
				}
				checkLineSizes(t, buf.Bytes())
				got, _ := toolResultOf(decodeLines(t, buf.Bytes())[2])["content"].(string)
				m := omittedNote.FindStringSubmatch(got)
				if !tt.capped {
					if got != tt.content {
						t.Errorf("content changed: %d bytes in, %d out", len(tt.content), len(got))
					}
					return
				}
				if m == nil {
					t.Fatalf("capped content has no note; %d bytes", len(got))
				}
				var omitted int
				fmt.Sscan(m[1], &omitted)
				if kept := len(got) - len(m[0]) - 2; kept+omitted != len(tt.content) {
					t.Errorf("kept %d + omitted %d != %d input bytes", kept, omitted, len(tt.content))
				}
				if len(got) > MaxToolOutput {
					t.Errorf("content is %d bytes, over MaxToolOutput", len(got))
				}
			})
		}
	}
}

func TestToolOutputRedactedBeforeCap(t *testing.T) {
	secret := fake("ghp_", 36, alnum)
	out := secret + "\n" + strings.Repeat("z", 200_000) + "\n" + secret
	w, buf, _ := newTestWriter(Claude)
	_ = w.ToolUse("toolu_1", "Bash", map[string]string{"command": "env"})
	_ = w.ToolResult("toolu_1", out, false)
	if strings.Contains(buf.String(), secret) {
		t.Error("secret leaked")
	}
	if strings.Count(buf.String(), "[REDACTED:github-token]") != 2 {
		t.Error("head and tail secrets should both be redacted")
	}
}

func TestOversizedToolUseIsTruncated(t *testing.T) {
	command := "echo " + strings.Repeat("word ", 60_000)
	for _, p := range protocols {
		t.Run(string(p), func(t *testing.T) {
			w, buf, _ := newTestWriter(p)
			input := map[string]any{"command": command, "description": "long"}
			if err := w.ToolUse("toolu_1", "Bash", input); err != nil {
				t.Fatal(err)
			}
			if _, err := w.PermissionRequest("toolu_1", "Bash", input); err != nil {
				t.Fatal(err)
			}
			_ = w.Deny("toolu_1", "Bash", input, "")
			_ = w.Result(Result{})
			checkLineSizes(t, buf.Bytes())
			mustValidate(t, buf.Bytes())
			lines := decodeLines(t, buf.Bytes())
			got, _ := toolUseOf(lines[1])["input"].(map[string]any)["command"].(string)
			if !strings.HasPrefix(got, "echo word") || !strings.Contains(got, "bytes truncated]") {
				t.Errorf("command not truncated with a note: %.100q…", got)
			}
			if toolUseOf(lines[1])["input"].(map[string]any)["description"] != "long" {
				t.Error("small fields must survive truncation")
			}
			// Field order survives the re-encoding.
			if !bytes.HasPrefix(bytes.SplitN(buf.Bytes(), []byte("\n"), 3)[1], []byte(`{"type":`)) {
				t.Error("type is no longer the first field")
			}
		})
	}
}

func TestOversizedManySmallValues(t *testing.T) {
	input := map[string]int{}
	for i := range 20_000 {
		input[fmt.Sprintf("k%05d", i)] = i
	}
	w, buf, _ := newTestWriter(Claude)
	if err := w.ToolUse("toolu_1", "Custom", input); err != nil {
		t.Fatal(err)
	}
	checkLineSizes(t, buf.Bytes())
	if !strings.Contains(buf.String(), "bytes omitted]") {
		t.Error("no note where the input was dropped")
	}
	_ = w.ToolResult("toolu_1", "done", false)
	_ = w.Result(Result{})
	mustValidate(t, buf.Bytes())
}

func TestOversizedConfigStrings(t *testing.T) {
	// A giant model name makes every event's overhead huge; the safety net
	// must still keep lines under the limit.
	var buf bytes.Buffer
	w := NewWriter(&buf, Config{Model: strings.Repeat("m", 150_000)})
	_ = w.Init("default", []string{"Bash"})
	_ = w.Text(strings.Repeat("t", 1000))
	_ = w.Result(Result{})
	checkLineSizes(t, buf.Bytes())
	mustValidate(t, buf.Bytes())
}

func TestEncodeLineAlwaysFits(t *testing.T) {
	medium := make([]string, 2000)
	for i := range medium {
		medium[i] = strings.Repeat("m", 200)
	}
	deep := any("leaf " + strings.Repeat("d", 150_000))
	for range 50 {
		deep = []any{deep}
	}
	tests := []struct {
		name  string
		input any
	}{
		{"many medium strings", medium},
		{"two big strings", map[string]string{"a": strings.Repeat("a", 70_000), "b": strings.Repeat("b", 70_000)}},
		{"giant key", map[string]int{strings.Repeat("k", 120_000): 1}},
		{"deep nesting", deep},
		{"invalid UTF-8 in raw JSON", jsonRaw(`{"x":"` + strings.Repeat("\xff", 60_000) + `"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, err := encodeLine(toolUseLine{head{"tool_use"}, "toolu_1", "X", tt.input, NewUUID()})
			if err != nil {
				t.Fatal(err)
			}
			if len(line) >= MaxLine || !utf8.Valid(line) {
				t.Errorf("line is %d bytes, valid UTF-8: %v", len(line), utf8.Valid(line))
			}
			m := decodeLines(t, line)[0]
			if m["type"] != "tool_use" || m["id"] != "toolu_1" || m["input"] == nil {
				t.Errorf("the event lost its identity: %.300s", line)
			}
		})
	}
}

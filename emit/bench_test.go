package emit

import (
	"io"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/emit/emittest"
)

func BenchmarkWriterSmallEvents(b *testing.B) {
	for _, p := range protocols {
		b.Run(string(p), func(b *testing.B) {
			w := NewWriter(io.Discard, Config{Protocol: p})
			input := map[string]string{"command": "npm test"}
			b.ReportAllocs()
			for b.Loop() {
				_ = w.Text("Running the tests now.")
				_ = w.ToolUse("toolu_1", "Bash", input)
				_ = w.ToolResult("toolu_1", "ok", false)
			}
		})
	}
}

func BenchmarkWriterToolResult100KB(b *testing.B) {
	out := sampleOutput()
	w := NewWriter(io.Discard, Config{})
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		_ = w.ToolResult("toolu_1", out, false)
	}
}

func BenchmarkWriterText1MB(b *testing.B) {
	text := strings.Repeat("Some assistant prose, with \"quotes\" and newlines.\n", 20_000)
	w := NewWriter(io.Discard, Config{})
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		_ = w.Text(text)
	}
}

func BenchmarkValidate(b *testing.B) {
	var buf strings.Builder
	w := NewWriter(&buf, Config{})
	for i := range 200 {
		id := NewToolUseID()
		_ = w.Text("step")
		_ = w.ToolUse(id, "Bash", map[string]int{"n": i})
		_ = w.ToolResult(id, strings.Repeat("output ", 100), false)
	}
	_ = w.Result(Result{})
	stream := []byte(buf.String())
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		if errs := emittest.Validate(stream); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

package structured

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/emit"
)

// typicalLines are the most frequent lines of each provider's stream, taken
// from the captures: a mix of streamed text, tool calls and results.
var typicalLines = map[string][]string{
	"gemini": {
		`{"type":"message","timestamp":"2026-11-22T00:06:15.096Z","role":"assistant","content":"Running the tests now, then I will fix the failures.","delta":true}`,
		`{"type":"message","timestamp":"2026-11-22T00:06:15.102Z","role":"assistant","content":" The first one is in parser.go.","delta":true}`,
		`{"type":"tool_use","timestamp":"2026-11-22T00:06:15.145Z","tool_name":"run_shell_command","tool_id":"run_shell_command_%d","parameters":{"command":"go test ./...","description":"Run tests"}}`,
		`{"type":"tool_result","timestamp":"2026-11-22T00:06:15.351Z","tool_id":"run_shell_command_%d","status":"success","output":"ok  \texample.com/p\t0.012s"}`,
	},
	"codex": {
		`{"type":"item.completed","item":{"id":"item_%d","type":"reasoning","text":"**Checking repository root for README**"}}`,
		`{"type":"item.started","item":{"id":"item_%d","type":"command_execution","command":"/bin/bash -lc 'go test ./...'","aggregated_output":"","exit_code":null,"status":"in_progress"}}`,
		`{"type":"item.completed","item":{"id":"item_%d","type":"command_execution","command":"/bin/bash -lc 'go test ./...'","aggregated_output":"ok  \texample.com/p\t0.012s\n","exit_code":0,"status":"completed"}}`,
		`{"type":"item.completed","item":{"id":"item_%d","type":"agent_message","text":"The tests pass now."}}`,
	},
	"copilot": {
		`{"type":"assistant.message_delta","data":{"messageId":"m%d","deltaContent":"Running the tests"},"ephemeral":true,"id":"57e12303-4fe0-44fd-a1db-1c5e82144d4d","timestamp":"2026-11-22T00:06:43.093Z","parentId":"c10f75f0-231b-4967-93c6-4226d752f372"}`,
		`{"type":"model.call_start","data":{"turnId":"0","model":"gpt-5.5"},"ephemeral":true,"id":"2ad63017-8750-4802-aebc-968959307370","timestamp":"2026-11-22T00:06:43.070Z","parentId":"c10f75f0-231b-4967-93c6-4226d752f372"}`,
		`{"type":"assistant.message","data":{"messageId":"m%d","content":"Running the tests","toolRequests":[{"toolCallId":"call_%d","name":"bash","arguments":{"command":"go test ./...","description":"Run tests"},"type":"function"}]},"id":"506f4f87-a296-4ff9-b02a-e6c83846c70e","timestamp":"2026-11-22T00:06:51.079Z"}`,
		`{"type":"tool.execution_complete","data":{"toolCallId":"call_%d","success":true,"result":{"content":"ok  \texample.com/p\t0.012s"}},"id":"b63bd081-c807-4b11-ab98-3222c707b160","timestamp":"2026-11-22T00:06:51.100Z"}`,
	},
	"claude": {
		`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}},"parent_tool_use_id":null,"session_id":"6f1","uuid":"9d0c8e2a-1111-4c1c-8e0e-0a0a0a0a0a0a"}`,
		`{"type":"assistant","message":{"content":[{"text":"Running the tests.","type":"text"}],"id":"msg_fake_1","model":"claude-opus-4-8","role":"assistant","stop_reason":null,"stop_sequence":null,"type":"message","usage":{"input_tokens":20,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"b6b9","uuid":"894c0b8d-d2ed-4160-bf0b-c41df28fb21a"}`,
		`{"type":"assistant","message":{"content":[{"id":"toolu_%d","input":{"command":"go test ./...","description":"Run tests"},"name":"Bash","type":"tool_use"}],"id":"msg_fake_1","model":"claude-opus-4-8","role":"assistant","stop_reason":null,"type":"message","usage":{"input_tokens":20,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"b6b9","uuid":"c8c0332f-84ae-44c9-9ebf-3bb3880a988b"}`,
		`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":"ok  \texample.com/p\t0.012s","is_error":false}]},"parent_tool_use_id":null,"session_id":"b6b9","uuid":"658bd4d0-41c0-4ce1-ba56-c93611bc3f76"}`,
	},
}

// streamReader produces typical lines of provider, with fresh tool ids,
// until limit bytes were produced, without holding the stream in memory.
type streamReader struct {
	lines []string
	n     int
	left  int64
	buf   []byte
}

func (s *streamReader) Read(p []byte) (int, error) {
	if len(s.buf) == 0 {
		if s.left <= 0 {
			return 0, io.EOF
		}
		tmpl := s.lines[s.n%len(s.lines)]
		id := s.n / len(s.lines)
		s.n++
		args := make([]any, strings.Count(tmpl, "%d"))
		for i := range args {
			args[i] = id
		}
		s.buf = fmt.Appendf(nil, tmpl+"\n", args...)
		s.left -= int64(len(s.buf))
	}
	k := copy(p, s.buf)
	s.buf = s.buf[k:]
	return k, nil
}

// BenchmarkTranslate measures each translator on its typical lines (input
// already split into lines, output encoded and discarded).
func BenchmarkTranslate(b *testing.B) {
	for _, provider := range []string{"claude", "codex", "copilot", "gemini"} {
		b.Run(provider, func(b *testing.B) {
			// Pre-render enough distinct lines; ids repeat after that, which
			// the translators dedupe like a real replayed stream.
			var lines [][]byte
			sr := &streamReader{lines: typicalLines[provider], left: 1 << 62}
			for i := 0; i < 4096; i++ {
				l, _ := newLineReader(sr).next()
				lines = append(lines, bytes.Clone(l))
			}
			w := emit.NewWriter(io.Discard, emit.Config{SessionID: "sess-bench"})
			tr := newTestTranslator(b, provider, w)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := tr.Line(lines[i%len(lines)]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

// BenchmarkStream1GiB pumps 1 GiB of typical lines per provider through the
// line reader and the translator and reports the peak heap in use, which
// must stay flat (a few MiB), not grow with the stream. Run with
// -benchtime=1x.
func BenchmarkStream1GiB(b *testing.B) {
	for _, provider := range []string{"claude", "codex", "copilot", "gemini"} {
		b.Run(provider, func(b *testing.B) {
			b.SetBytes(1 << 30)
			var peak uint64
			for i := 0; i < b.N; i++ {
				w := emit.NewWriter(io.Discard, emit.Config{SessionID: "sess-bench"})
				tr := newTestTranslator(b, provider, w)
				sr := &streamReader{lines: typicalLines[provider], left: 1 << 30}
				sampler := &heapSampler{every: 1 << 18}
				st, err := pump(sr, tr, provider, io.Discard, sampler.sample)
				if err != nil || st.Malformed != 0 {
					b.Fatalf("pump: %v, %d malformed", err, st.Malformed)
				}
				peak = max(peak, sampler.peak)
				b.ReportMetric(float64(st.Lines)/b.Elapsed().Seconds(), "lines/s")
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}

// heapSampler records the largest live heap seen every n lines.
type heapSampler struct {
	every, n int
	peak     uint64
}

func (h *heapSampler) sample() {
	h.n++
	if h.n%h.every != 0 {
		return
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	h.peak = max(h.peak, ms.HeapAlloc)
}

// BenchmarkTranslateCaptures replays each provider's real captured streams
// (testdata/<provider>/*.jsonl) line by line: the line mix as it occurs.
func BenchmarkTranslateCaptures(b *testing.B) {
	for _, provider := range []string{"claude", "codex", "copilot", "gemini"} {
		b.Run(provider, func(b *testing.B) {
			var lines [][]byte
			files, _ := filepath.Glob(filepath.Join("testdata", provider, "*.jsonl"))
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					b.Fatal(err)
				}
				for _, l := range bytes.Split(data, []byte("\n")) {
					if len(l) > 0 {
						lines = append(lines, l)
					}
				}
			}
			w := emit.NewWriter(io.Discard, emit.Config{SessionID: "sess-bench"})
			tr := newTestTranslator(b, provider, w)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := tr.Line(lines[i%len(lines)]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

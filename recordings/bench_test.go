package recordings

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// sessionCast builds a cast of about size bytes that looks like a TUI
// session: coloured output lines with some non-ASCII text, the odd key.
func sessionCast(tb testing.TB, size int) []byte {
	tb.Helper()
	c := &Cast{Header: Header{Width: 120, Height: 40, Env: map[string]string{"TERM": "xterm-256color"}}}
	var buf bytes.Buffer
	for i := 0; buf.Len() < size; i++ {
		at := time.Duration(i) * 7 * time.Millisecond
		data := fmt.Sprintf("\x1b[%d;1H\x1b[38;5;%dm%4d │ const answer = \"żółć\"; // ✓ %s\x1b[0m\r\n", i%40+1, i%256, i, "padding text")
		c.Events = append(c.Events, Event{at, CodeOutput, data})
		if i%50 == 0 {
			c.Events = append(c.Events, Event{at, CodeInput, "y\r"})
		}
		buf.WriteString(data)
	}
	var out bytes.Buffer
	if err := Write(&out, c); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

// BenchmarkRead reads a ~1 MB recording (target: well under 100 ms).
func BenchmarkRead(b *testing.B) {
	data := sessionCast(b, 1<<20)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecorderOutput records 4 KiB PTY reads that split characters.
func BenchmarkRecorderOutput(b *testing.B) {
	chunk := bytes.Repeat([]byte("\x1b[1mżółć\x1b[0m ok "), 300) // 20 bytes each.
	chunk = chunk[:4085]                                         // 4085 % 20 == 5: cut inside "ż", so the carry path runs.
	r, err := NewRecorder(&bytes.Buffer{}, Header{Width: 80, Height: 24}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(chunk)))
	var at time.Duration
	for b.Loop() {
		at += time.Millisecond
		r.Output(at, chunk)
	}
}

package recordings

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestRecorderGolden records a session whose reads split characters and carry
// invalid bytes, and compares the file with testdata/casts/recorded.cast.
func TestRecorderGolden(t *testing.T) {
	var buf bytes.Buffer
	start := time.Unix(1700000000, 0)
	h := Header{Width: 80, Height: 24, Title: "golden", Env: map[string]string{"TERM": "xterm-256color"}}
	r, err := NewRecorder(&buf, h, start)
	if err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	r.Output(10*ms, []byte("Run \xe2\x82"))      // "€" split: its first two bytes...
	r.Output(20*ms, []byte("\xac? (y/n) "))      // ...and its last.
	r.Output(25*ms, []byte("\xf0\x9f"))          // Half an emoji: nothing to write yet.
	r.Marker(30*ms, "confirm")                   // Markers do not disturb the carry.
	r.Output(40*ms, []byte("\x98\x80 bad:\xff")) // The emoji completes; 0xFF is invalid.
	r.Input(50*ms, []byte("y"))
	r.Input(45*ms, []byte("\r")) // Arrives late: clamped to 50ms, never backwards.
	r.Resize(60*ms, 100, 40)
	r.Resize(61*ms, 0, 40) // Not a size: dropped.
	r.Output(70*ms, []byte("done\r\n\xe2\x82"))
	r.Input(75*ms, []byte("\xc3")) // An incomplete key at the end of input.
	if err := r.Close(3); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "casts", "recorded.cast")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if buf.String() != string(want) {
		t.Errorf("recorded\n%s\nwant (%s)\n%s", buf.String(), golden, want)
	}
	c, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var out, in strings.Builder
	for _, e := range c.Events {
		switch e.Code {
		case CodeOutput:
			out.WriteString(e.Data)
		case CodeInput:
			in.WriteString(e.Data)
		}
	}
	if want := "Run €? (y/n) 😀 bad:\uFFFDdone\r\n\uFFFD"; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
	if want := "y\r\uFFFD"; in.String() != want {
		t.Errorf("input = %q, want %q", in.String(), want)
	}
	if status, ok := c.ExitStatus(); status != 3 || !ok {
		t.Errorf("exit status = %d, %v; want 3", status, ok)
	}
	if c.Header.Timestamp != start.Unix() {
		t.Errorf("timestamp = %d, want %d from start", c.Header.Timestamp, start.Unix())
	}
}

// TestRecorderConcurrent records output, input and markers from three
// goroutines at once (run it with -race): every stream must come back whole
// and in order, and the file must be a valid cast (times never decrease).
func TestRecorderConcurrent(t *testing.T) {
	var buf syncBuffer
	r, err := NewRecorder(&buf, Header{Width: 80, Height: 24}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 500
	epoch := time.Now()
	now := func() time.Duration { return time.Since(epoch) }
	var wantOut, wantIn strings.Builder
	for i := range n {
		fmt.Fprintf(&wantOut, "line %d żółć 😀\r\n", i)
		fmt.Fprintf(&wantIn, "k%d€", i)
	}
	var wg sync.WaitGroup
	feed := func(text string, write func(time.Duration, []byte)) {
		defer wg.Done()
		b := []byte(text)
		for len(b) > 0 {
			k := min(len(b), 7) // 7-byte reads split multibyte characters.
			write(now(), b[:k])
			b = b[k:]
		}
	}
	wg.Add(3)
	go feed(wantOut.String(), r.Output)
	go feed(wantIn.String(), r.Input)
	go func() {
		defer wg.Done()
		for i := range n {
			r.Marker(now(), fmt.Sprint(i))
			r.Resize(now(), 80+i%3, 24)
		}
	}()
	wg.Wait()
	if err := r.Close(0); err != nil {
		t.Fatal(err)
	}
	c, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("the concurrent recording is not a valid cast: %v", err)
	}
	var out, in strings.Builder
	markers := 0
	for _, e := range c.Events {
		switch e.Code {
		case CodeOutput:
			out.WriteString(e.Data)
		case CodeInput:
			in.WriteString(e.Data)
		case CodeMarker:
			if e.Data != fmt.Sprint(markers) {
				t.Fatalf("marker %d has label %q", markers, e.Data)
			}
			markers++
		}
	}
	if out.String() != wantOut.String() || in.String() != wantIn.String() || markers != n {
		t.Errorf("streams came back changed: output %v, input %v, %d markers",
			out.String() == wantOut.String(), in.String() == wantIn.String(), markers)
	}
}

func TestRecorderErrors(t *testing.T) {
	boom := errors.New("disk full")
	if _, err := NewRecorder(failWriter{boom}, Header{Width: 1, Height: 1}, time.Now()); !errors.Is(err, boom) {
		t.Errorf("NewRecorder on a failing writer = %v, want %v wrapped", err, boom)
	}
	if _, err := NewRecorder(&bytes.Buffer{}, Header{}, time.Now()); err == nil ||
		!strings.Contains(err.Error(), "set Header.Width and Header.Height") {
		t.Errorf("NewRecorder without a size = %v, want an error saying what to set", err)
	}

	// A write error is kept, later events are dropped, Close reports it.
	w := &failAfter{n: 1, err: boom}
	r, err := NewRecorder(w, Header{Width: 1, Height: 1}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r.Output(0, []byte("a"))
	r.Output(time.Second, []byte("b"))
	if err := r.Close(0); !errors.Is(err, boom) {
		t.Errorf("Close = %v, want the first write error", err)
	}
	if w.calls != 2 {
		t.Errorf("%d writes, want 2: the header and the failing event, nothing after", w.calls)
	}

	var buf bytes.Buffer
	r, _ = NewRecorder(&buf, Header{Width: 1, Height: 1}, time.Now())
	if err := r.Close(0); err != nil {
		t.Fatal(err)
	}
	size := buf.Len()
	r.Output(time.Second, []byte("late"))
	r.Input(time.Second, []byte("late"))
	r.Marker(time.Second, "late")
	r.Resize(time.Second, 2, 2)
	if err := r.Close(0); err == nil {
		t.Error("second Close = nil, want an error")
	}
	if buf.Len() != size {
		t.Errorf("events after Close were written: %q", buf.String()[size:])
	}
}

// failAfter succeeds n times, then fails.
type failAfter struct {
	n, calls int
	err      error
}

func (w *failAfter) Write(p []byte) (int, error) {
	w.calls++
	if w.calls > w.n {
		return 0, w.err
	}
	return len(p), nil
}

// syncBuffer is a bytes.Buffer the race detector can watch: the recorder
// serialises its writes, and the test reads only after Close.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Bytes()
}

// TestRecorderRedacts: a secret split across reads is still redacted; the
// held-back last word is written before the key that answers it, so a
// replay sees the question whole before the answer.
func TestRecorderRedacts(t *testing.T) {
	secret := "ghp_" + strings.Repeat("aB3dE5gH7j", 4)
	var buf bytes.Buffer
	rec, err := NewRecorder(&buf, Header{Version: 2, Width: 80, Height: 24}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	rec.Redact(func(s string) string { return strings.ReplaceAll(s, secret, "[REDACTED]") })
	rec.Output(1*time.Millisecond, []byte("token "+secret[:10]))
	rec.Output(2*time.Millisecond, []byte(secret[10:]+"\r\nRun this? (y/n)"))
	rec.Input(3*time.Millisecond, []byte("y"))
	rec.Output(4*time.Millisecond, []byte("\r\nok "+secret))
	if err := rec.Close(0); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	if strings.Contains(got, secret[:10]) || strings.Count(got, "[REDACTED]") != 2 {
		t.Errorf("secret not redacted:\n%s", got)
	}
	q, y := strings.Index(got, "(y/n)"), strings.Index(got, `"i", "y"`)
	if q < 0 || y < 0 || q > y {
		t.Errorf("the question must come before its answer:\n%s", got)
	}
}

// TestRecorderKeepsEachChunksTime: with redaction on, a chunk is written
// at the time it came, not at the time of the word held back from the
// chunk before (a TUI's frames end in an escape sequence, so each frame
// took its predecessor's time); only a secret that runs across the two
// joins them, at the time it was whole.
func TestRecorderKeepsEachChunksTime(t *testing.T) {
	secret := "ghp_" + strings.Repeat("aB3dE5gH7j", 4)
	tests := []struct {
		name   string
		chunks []timedChunk
		want   map[string]time.Duration // text → the time of the event holding it
	}{
		{"frames ending in an escape sequence", []timedChunk{
			{1 * time.Second, "\x1b[?2026hstart\x1b[?2026l"},
			{6 * time.Second, "\x1b[?2026hdialog\x1b[?2026l"},
			{7 * time.Second, "\x1b[?2026hafter\x1b[?2026l"},
		}, map[string]time.Duration{"start": time.Second, "dialog": 6 * time.Second, "after": 7 * time.Second}},
		{"a word over two chunks", []timedChunk{
			{1 * time.Second, "Run th"},
			{2 * time.Second, "is? (y/n)"},
		}, map[string]time.Duration{"Run": time.Second, "is?": 2 * time.Second}},
		{"a secret over two chunks, whole at the second", []timedChunk{
			{1 * time.Second, "token " + secret[:10]},
			{3 * time.Second, secret[10:] + " done\r\n"},
		}, map[string]time.Duration{"token": time.Second, "[REDACTED]": 3 * time.Second, "done": 3 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sent, got strings.Builder
			for _, c := range tt.chunks {
				sent.WriteString(c.text)
			}
			for _, e := range recordRedacted(t, secret, tt.chunks) {
				got.WriteString(e.Data)
				for text, at := range tt.want {
					if strings.Contains(e.Data, text) && e.Time != at {
						t.Errorf("%q recorded at %v, want %v (event %q)", text, e.Time, at, e.Data)
					}
				}
			}
			if want := strings.ReplaceAll(sent.String(), secret, "[REDACTED]"); got.String() != want {
				t.Errorf("output %q, want %q", got.String(), want)
			}
		})
	}
}

// timedChunk is output that came at a time.
type timedChunk struct {
	at   time.Duration
	text string
}

// recordRedacted records chunks through a recorder that redacts secret,
// and returns the output events read back.
func recordRedacted(t testing.TB, secret string, chunks []timedChunk) []Event {
	var buf bytes.Buffer
	rec, err := NewRecorder(&buf, Header{Version: 2, Width: 80, Height: 24}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	rec.Redact(func(s string) string { return strings.ReplaceAll(s, secret, "[REDACTED]") })
	for _, c := range chunks {
		rec.Output(c.at, []byte(c.text))
	}
	if err := rec.Close(0); err != nil {
		t.Fatal(err)
	}
	c, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var out []Event
	for _, e := range c.Events {
		if e.Code == CodeOutput {
			out = append(out, e)
		}
	}
	return out
}

package driver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/leakcheck"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/vt"
)

// chanTerm is a ptyhost.Terminal whose output comes from a channel; a closed
// channel is the end of output.
type chanTerm struct {
	ptyhost.Terminal
	out   chan []byte
	ahead time.Duration // the time its chunks say they came (its own clock)
}

func (t *chanTerm) ReadChunk() ([]byte, time.Duration, error) {
	data, ok := <-t.out
	if !ok {
		return nil, 0, io.EOF
	}
	return data, t.ahead, nil
}

// startChanSource starts a live source on a chanTerm; the test is the
// driver and holds the screen (a buffer) between calls to next.
func startChanSource(t *testing.T) (*liveSource, chan []byte, *bytes.Buffer) {
	term := &chanTerm{out: make(chan []byte)}
	screen := &bytes.Buffer{}
	s := newLiveSource(term, nil)
	s.start(screen)
	t.Cleanup(s.stop)
	return s, term.out, screen
}

// TestLiveSourceReportsOutputBeforeItsEnd: output parsed before the end of
// output is reported first, and is on the screen by then.
func TestLiveSourceReportsOutputBeforeItsEnd(t *testing.T) {
	s, out, screen := startChanSource(t)
	go func() {
		out <- []byte("last words")
		close(out)
	}()
	var kinds []eventKind
	for {
		e := s.next(context.Background(), 0, nil)
		kinds = append(kinds, e.kind)
		if e.kind == evOutput && !e.fed {
			t.Fatal("live output must come parsed (fed)")
		}
		if e.kind == evEnd {
			break
		}
	}
	if kinds[0] != evOutput || screen.String() != "last words" {
		t.Fatalf("events %v, screen %q: want the output first, then the end", kinds, screen.String())
	}
}

// TestLiveSourceWakesOnFirstOutput: a driver with nothing due is woken by
// the first output, not left waiting for a deadline.
func TestLiveSourceWakesOnFirstOutput(t *testing.T) {
	s, out, screen := startChanSource(t)
	go func() { out <- []byte("$ ") }()
	far := s.clock.now() + time.Hour
	e := s.next(context.Background(), far, nil)
	if e.kind != evOutput || screen.String() != "$ " {
		t.Fatalf("got event %v with screen %q; want the output", e.kind, screen.String())
	}
}

// TestLiveSourceCoalescesAFlood: during a flood the driver, which always
// waits for output to pause (soon after the newest chunk), is woken by
// far fewer chunks than arrive, and nothing is lost.
func TestLiveSourceCoalescesAFlood(t *testing.T) {
	const chunks = 5000
	s, out, screen := startChanSource(t)
	chunk := bytes.Repeat([]byte("x"), 4096)
	go func() {
		for range chunks {
			out <- chunk
		}
		close(out)
	}()
	deadline := time.Duration(0)
	for {
		e := s.next(context.Background(), deadline, nil)
		if e.kind == evEnd {
			break
		}
		if e.kind == evOutput {
			deadline = e.at + soon
		}
	}
	wakes := s.wakes.Load()
	if screen.Len() != chunks*len(chunk) {
		t.Fatalf("screen got %d bytes, want %d", screen.Len(), chunks*len(chunk))
	}
	if wakes > chunks/4 {
		t.Fatalf("the driver woke %d times for %d chunks: output is not coalesced", wakes, chunks)
	}
	t.Logf("%d wake-ups for %d chunks", wakes, chunks)
}

// countingWriter is a screen that counts the writes it gets.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

// TestLiveSourceReadsWhileTheDriverWorks: the program's output is drained
// while the driver is busy elsewhere (it does not call next), so the
// program never waits on a full terminal for the parse; the driver then
// takes all of it in one hand-off, not one per chunk.
func TestLiveSourceReadsWhileTheDriverWorks(t *testing.T) {
	const chunks = ptyhost.DefaultRing / 4096 / 2 // half the ring
	term := &chanTerm{out: make(chan []byte)}
	screen := &countingWriter{}
	s := newLiveSource(term, nil)
	s.start(screen)
	t.Cleanup(s.stop)
	chunk := bytes.Repeat([]byte("y"), 4096)
	sent := make(chan struct{})
	go func() {
		for range chunks {
			term.out <- chunk // an unbuffered send: it returns once the reader took the chunk
		}
		close(sent)
	}()
	select {
	case <-sent:
	case <-time.After(30 * time.Second):
		t.Fatal("the reader stopped reading while the driver was busy: the program would block")
	}
	// The last chunk sent may still be on its way into the ring.
	leakcheck.WaitUntil(t, 30*time.Second, "the reader did not put the last chunk in its ring", func() bool {
		return s.reader.Buffered() == chunks*len(chunk)
	})
	e := s.next(context.Background(), 0, nil)
	if e.kind != evOutput || screen.Len() != chunks*len(chunk) {
		t.Fatalf("event %v, screen %d bytes; want one output event with all %d", e.kind, screen.Len(), chunks*len(chunk))
	}
	if screen.writes > 2 { // the ring may wrap once
		t.Fatalf("%d writes to the screen for one hand-off; want at most 2", screen.writes)
	}
}

// TestLiveSourceTimesOutputOnItsClock: output is timed on the driver's
// clock, not the terminal's, which starts with the program, seconds
// before the driver: a chunk timed ahead of the driver's deadlines fired
// them early (a retry typed at once, not after a still second).
func TestLiveSourceTimesOutputOnItsClock(t *testing.T) {
	term := &chanTerm{out: make(chan []byte), ahead: time.Hour}
	s := newLiveSource(term, nil)
	s.start(&bytes.Buffer{})
	t.Cleanup(s.stop)
	go func() { term.out <- []byte("hello") }()
	e := s.next(context.Background(), 0, nil)
	if now := s.clock.now(); e.kind != evOutput || e.at > now {
		t.Fatalf("output event at %v, kind %v; the driver's clock says %v", e.at, e.kind, now)
	}
}

// skipCounter is a screen that counts the bytes it skipped.
type skipCounter struct {
	*vt.Screen
	skipped int
}

func (s *skipCounter) Skip(p []byte) int {
	n := s.Screen.Skip(p)
	s.skipped += n
	return n
}

// TestLiveSourceSkipsAFloodUnseen: a flood taken in batches skips what
// scrolls off (most of it), yet the screen is whole whenever the driver
// can read it (any event but a batch's output: a timer's) and ends as a
// screen given every byte; whether the driver's pause deadline comes
// during the flood (soon) or not (an hour).
func TestLiveSourceSkipsAFloodUnseen(t *testing.T) {
	var flood bytes.Buffer
	for i := 0; flood.Len() < 4<<20; i++ {
		fmt.Fprintf(&flood, "\x1b[2m%06d\x1b[0m \x1b[32mINFO\x1b[0m compiling \x1b[1mpackage/%d\x1b[0m … ok\r\n", i, i%97)
	}
	flood.WriteString("Apply these changes? (y/n) ")
	want := vt.NewScreen(80, 24)
	want.Write(flood.Bytes())
	for _, pause := range []time.Duration{soon, time.Hour} {
		term := &chanTerm{out: make(chan []byte)}
		screen := &skipCounter{Screen: vt.NewScreen(80, 24)}
		screen.SetScrollbackLimit(0)
		s := newLiveSource(term, nil)
		s.start(screen)
		go func() {
			for p := flood.Bytes(); len(p) > 0; p = p[min(len(p), 4096):] {
				term.out <- p[:min(len(p), 4096)]
			}
			close(term.out)
		}()
		deadline, timers := time.Duration(0), 0
		for {
			before, _ := s.reader.Settled() // read before the driver asks: parsed before any other event
			e := s.next(context.Background(), deadline, nil)
			if _, taken := s.reader.Settled(); e.kind != evOutput && (e.read < before || e.read > taken) {
				t.Fatalf("pause %v: a %v event handed over when %d bytes were parsed of %d read before it: a timer would read a screen behind the program", pause, e.kind, e.read, before)
			}
			if e.kind == evEnd {
				break
			}
			switch e.kind {
			case evOutput:
				deadline = e.at + pause
			case evTimer:
				timers++
				deadline = 0
			}
		}
		s.stop()
		if screen.String() != want.String() {
			t.Fatalf("pause %v: screen after the flood:\n%s\nwant:\n%s", pause, screen.String(), want.String())
		}
		if pause == time.Hour && screen.skipped < flood.Len()/2 { // with soon, how much depends on the machine's speed
			t.Fatalf("pause %v: skipped %d of %d bytes: a flood in batches should be skipped, not drawn", pause, screen.skipped, flood.Len())
		}
		t.Logf("pause %v: skipped %d of %d bytes; %d timers fired", pause, screen.skipped, flood.Len(), timers)
	}
}

// TestLiveSourceParsesAQuestionAtOnce: output that ends with a question
// to the terminal (a cursor position query) is due at once, even when the
// driver would look only once a pause after it ended: the program waits
// for the answer the parse gives. Other output waits for the pause.
func TestLiveSourceParsesAQuestionAtOnce(t *testing.T) {
	for _, c := range []struct {
		chunk  string
		asking bool
	}{
		{"frame\x1b[6n", true},
		{"\x1b]11;?\x1b\\", true},
		{"frame\x1b[0m", false},
	} {
		s, out, screen := startChanSource(t)
		out <- []byte(c.chunk)
		leakcheck.WaitUntil(t, 30*time.Second, "the reader did not put the chunk in its ring", func() bool {
			return s.reader.Buffered() == len(c.chunk)
		})
		_, since := s.reader.Since()
		deadline := since + soon // when a pause after it would end
		due := s.due(deadline)
		if c.asking && !due {
			t.Fatalf("%q: not due before %v: the program would wait that long for its answer", c.chunk, deadline)
		}
		if !c.asking && due && s.clock.now() < deadline {
			t.Fatalf("%q: due before the pause after it could end", c.chunk)
		}
		if e := s.next(context.Background(), deadline, nil); e.kind != evOutput || screen.String() != c.chunk {
			t.Fatalf("%q: event %v, screen %q", c.chunk, e.kind, screen.String())
		}
		if s.asking.Load() {
			t.Fatalf("%q: still asking once parsed", c.chunk)
		}
	}
}

package driver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
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

// readyTerm is a terminal whose output is all there before it is read,
// as a PTY's is while a program prints at full speed: a read never waits.
type readyTerm struct {
	ptyhost.Terminal
	chunks [][]byte
}

func (t *readyTerm) ReadChunk() ([]byte, time.Duration, error) {
	if len(t.chunks) == 0 {
		return nil, 0, io.EOF
	}
	c := t.chunks[0]
	t.chunks = t.chunks[1:]
	return c, 0, nil
}

// TestLiveSourceSkipsAFloodUnseen: a flood taken in batches skips what
// scrolls off, yet the screen is whole whenever the driver can read it
// (any event but a batch's output: a timer's) and ends as a screen given
// every byte; whether the driver's pause deadline comes during the flood
// (soon) or not (an hour).
//
// How much is skipped is checked where it is the code's doing: on one
// thread of Go code, as yume-cli runs, with the flood ready to read, the
// reader yields each batch it holds and the driver skips it. On two
// threads, fed a chunk at a time, it is the machine's: a driver that
// keeps up with the producer takes each chunk as it lands and draws it
// (under -race beside two busy cores, 48-90% was skipped in 40 runs).
func TestLiveSourceSkipsAFloodUnseen(t *testing.T) {
	var flood bytes.Buffer
	for i := 0; flood.Len() < 4<<20; i++ {
		fmt.Fprintf(&flood, "\x1b[2m%06d\x1b[0m \x1b[32mINFO\x1b[0m compiling \x1b[1mpackage/%d\x1b[0m … ok\r\n", i, i%97)
	}
	flood.WriteString("Apply these changes? (y/n) ")
	want := vt.NewScreen(80, 24)
	want.Write(flood.Bytes())
	var chunks [][]byte
	for p := flood.Bytes(); len(p) > 0; p = p[min(len(p), 4096):] {
		chunks = append(chunks, p[:min(len(p), 4096)])
	}
	for _, c := range []struct {
		name       string
		pause      time.Duration
		oneThread  bool // GOMAXPROCS=1, the flood ready to read
		minSkipped int  // of 8
	}{
		{"fed, pause soon", soon, false, 0},
		{"fed, pause 1h", time.Hour, false, 0},
		{"ready on one thread, pause soon", soon, true, 0},
		{"ready on one thread, pause 1h", time.Hour, true, 7},
	} {
		t.Run(c.name, func(t *testing.T) { floodThrough(t, c.pause, c.oneThread, c.minSkipped, chunks, want.String()) })
	}
}

// floodThrough runs the flood in chunks through a live source, the test
// as its driver (TestLiveSourceSkipsAFloodUnseen).
func floodThrough(t *testing.T, pause time.Duration, oneThread bool, minSkipped int, chunks [][]byte, want string) {
	var term ptyhost.Terminal
	if oneThread {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		term = &readyTerm{chunks: chunks}
	} else {
		ch := &chanTerm{out: make(chan []byte)}
		go func() {
			for _, p := range chunks {
				ch.out <- p
			}
			close(ch.out)
		}()
		term = ch
	}
	screen := &skipCounter{Screen: vt.NewScreen(80, 24)}
	screen.SetScrollbackLimit(0)
	s := newLiveSource(term, nil)
	s.start(screen)
	deadline, timers := time.Duration(0), 0
	for {
		before, _ := s.reader.Settled() // read before the driver asks: parsed before any other event
		e := s.next(context.Background(), deadline, nil)
		if _, taken := s.reader.Settled(); e.kind != evOutput && (e.read < before || e.read > taken) {
			t.Fatalf("a %v event handed over when %d bytes were parsed of %d read before it: a timer would read a screen behind the program", e.kind, e.read, before)
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
	if screen.String() != want {
		t.Fatalf("screen after the flood:\n%s\nwant:\n%s", screen.String(), want)
	}
	total := 0
	for _, c := range chunks {
		total += len(c)
	}
	if screen.skipped < total/8*minSkipped {
		t.Fatalf("skipped %d of %d bytes; want %d/8 or more: a flood in batches should be skipped, not drawn", screen.skipped, total, minSkipped)
	}
	t.Logf("skipped %d of %d bytes; %d timers fired", screen.skipped, total, timers)
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
		// The reader tells of a question just after the chunk is in its
		// ring (SetAsking); a driver that looked between the two is woken
		// by the telling, a test must wait for it.
		leakcheck.WaitUntil(t, 30*time.Second, "the reader did not put the chunk in its ring, or did not tell of a question in it", func() bool {
			return s.reader.Buffered() == len(c.chunk) && (!c.asking || s.asking.Load())
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

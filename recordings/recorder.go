package recordings

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Recorder writes an asciicast v2 file while a session runs: the header at
// once, then one line per event, each with a single Write so that a crash
// loses at most the event being written (asciinema line-buffers too). It is
// safe for concurrent use: the PTY reader records output while the driver
// records the keys it types.
//
// The event methods return nothing, so that recording can never disturb the
// session; the first write error is kept, later events are dropped, and
// Close returns it.
type Recorder struct {
	mu     sync.Mutex
	w      io.Writer
	line   []byte        // reused event line buffer
	last   time.Duration // time of the last event written
	seen   time.Duration // latest time passed in, even for bytes carried over
	out    utf8Carry     // carry of the "o" stream
	in     utf8Carry     // carry of the "i" stream
	err    error         // first write error
	closed bool
	// redact, when set, filters the text of "o" and "i" events; held is
	// the end of the output not written yet because a secret may go on
	// in the next chunk (see Redact).
	redact func(string) string
	held   string
	heldAt time.Duration
}

// maxHeld bounds the output held back for redaction: a secret is one
// word, and longer words are written as they come.
const maxHeld = 512

// Redact makes the recorder pass the text of every output and input
// event through f (a secret filter). A program prints a secret in pieces
// when the PTY read splits it, so the output's last word is held back
// until the next chunk, Close, or maxHeld bytes.
func (r *Recorder) Redact(f func(string) string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.redact = f
}

// flushHeld writes the held output: it came before the event that
// follows (a key the person typed answers the question it ends).
func (r *Recorder) flushHeld() {
	if r.held != "" {
		s := r.held
		r.held = ""
		r.write(r.heldAt, CodeOutput, r.redact(s))
	}
}

// redactOutput writes a chunk of output that came at at, redacted, and
// holds back its unfinished last word. A word held from the chunk before
// is written at the time it came, apart from this chunk, unless a secret
// is in the two joined: then they go as one, at this chunk's time, when
// the secret was whole. (Joined at the word's time, every frame of a TUI,
// which ends in an escape sequence, took the time of the frame before: a
// dialog drawn after five quiet seconds was recorded five seconds early.)
func (r *Recorder) redactOutput(at time.Duration, s string) {
	held, heldAt := r.held, r.heldAt
	r.held = ""
	s = held + s
	cut := strings.LastIndexAny(s, " \t\r\n\x1b\a") + 1
	if cut > 0 && s[cut-1] == '\x1b' {
		cut-- // an escape sequence is held whole, not cut after its ESC
	}
	if tail := len(s) - cut; tail > 0 && tail <= maxHeld {
		r.held, r.heldAt, s = s[cut:], at, s[:cut] // at: its last piece came now
	}
	if s == "" {
		return
	}
	red := r.redact(s)
	if held != "" && red == s {
		r.write(heldAt, CodeOutput, held)
		red = s[len(held):]
	}
	if red != "" {
		r.write(at, CodeOutput, red)
	}
}

// NewRecorder writes h as a v2 header to w and returns a recorder for the
// events. start is when the session began: it fills h.Timestamp when that is
// zero. Event times passed to the methods are durations since start.
func NewRecorder(w io.Writer, h Header, start time.Time) (*Recorder, error) {
	if h.Width <= 0 || h.Height <= 0 {
		return nil, fmt.Errorf("recording: window size %dx%d is not positive; set Header.Width and Header.Height",
			h.Width, h.Height)
	}
	if h.Timestamp == 0 && !start.IsZero() {
		h.Timestamp = start.Unix()
	}
	line, err := appendHeader(nil, h)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	if _, err := w.Write(line); err != nil {
		return nil, fmt.Errorf("recording: writing the header: %w", err)
	}
	return &Recorder{w: w, line: line[:0]}, nil
}

// Output records bytes the program printed ("o"). A character split across
// two calls is written whole with the second; invalid bytes become U+FFFD.
func (r *Recorder) Output(at time.Duration, p []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.seen = max(r.seen, at)
	s := r.out.decode(p)
	switch {
	case r.redact != nil && s != "":
		r.redactOutput(at, s)
	case s != "":
		r.write(at, CodeOutput, s)
	}
}

// Input records bytes typed into the program ("i"): the keys the driver or a
// person sent and the driver's replies to terminal queries. Input has its
// own UTF-8 carry, independent of Output's.
func (r *Recorder) Input(at time.Duration, p []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.seen = max(r.seen, at)
	r.flushHeld()
	s := r.in.decode(p)
	if r.redact != nil {
		s = r.redact(s)
	}
	if s != "" {
		r.write(at, CodeInput, s)
	}
}

// Resize records a new window size ("r", data "COLSxROWS"). A size that is
// not positive is not recorded: no reader would accept it.
func (r *Recorder) Resize(at time.Duration, cols, rows int) {
	if cols <= 0 || rows <= 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.flushHeld()
		r.write(at, CodeResize, strconv.Itoa(cols)+"x"+strconv.Itoa(rows))
	}
}

// Marker records a marker ("m"), e.g. where the driver detected a prompt;
// players show markers as chapters. label may be empty.
func (r *Recorder) Marker(at time.Duration, label string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.flushHeld()
		r.write(at, CodeMarker, label)
	}
}

// Close ends the recording: it writes what the UTF-8 carries still hold (an
// incomplete character that can no longer complete becomes U+FFFD), then the
// exit event [t, "x", "exitCode"], both at the latest time recorded. For a child
// killed by signal N pass 128+N, as shells and asciinema report it. Close
// does not close the underlying writer; it returns the first write error of
// the whole recording. A second Close returns an error and writes nothing.
func (r *Recorder) Close(exitCode int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return errors.New("recording: Close called twice")
	}
	r.closed = true
	end := max(r.seen, r.last)
	if s := r.held + r.out.flush(); s != "" {
		at := end
		if r.held != "" {
			at = r.heldAt // the held word came then
		}
		if r.redact != nil {
			s = r.redact(s)
		}
		r.write(at, CodeOutput, s)
	}
	if s := r.in.flush(); s != "" {
		r.write(end, CodeInput, s)
	}
	r.write(end, CodeExit, strconv.Itoa(exitCode))
	return r.err
}

// write writes one event line; r.mu is held. Times are clamped so they never
// go backwards: callers take their timestamps before they get the lock, so
// two goroutines can arrive slightly out of order, and v2 needs order.
func (r *Recorder) write(at time.Duration, code byte, data string) {
	if r.err != nil {
		return
	}
	at = max(at, r.last, 0)
	r.last = at
	r.line = appendEvent(r.line[:0], at, code, data)
	if _, err := r.w.Write(r.line); err != nil {
		r.err = fmt.Errorf("recording: writing an event: %w", err)
	}
}

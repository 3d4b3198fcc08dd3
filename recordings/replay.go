package recordings

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"sync"
	"time"
)

// Replay plays a recording back as the driver's terminal, on a virtual
// clock: ReadChunk hands out the recorded output with its recorded times
// and never sleeps; Write checks the keys the driver types against the
// keys in the recording. It has the method set of ptyhost.Terminal except
// Wait, which is ExitCode here (ptyhost adapts it). It is safe for
// concurrent use.
//
// # Key comparison
//
// The recording's "i" events hold what was typed when it was recorded: by
// a person (yume-cli record) or by yume-cli itself (start --record), keys
// and terminal-query replies alike. The driver writes its approval keys and
// its own query replies. The two are compared as byte streams, not event by
// event, because typing is split or merged differently each time (one "y\r"
// write may be recorded as "y" and "\r", and the other way round):
//
//   - Each Write must continue the recorded input stream where the previous
//     one stopped; it consumes what it matches. Timing is not compared: keys
//     typed earlier or later than recorded still match.
//   - A Write that differs is a mismatch: Write returns it as *KeyMismatch.
//     To resynchronise, the rest of the recorded input up to the next output
//     the driver has not read yet (the recorded answer to the screens the
//     driver has seen) is skipped, so one wrong answer is reported once.
//   - Recorded input that precedes the output the driver is at (the chunk
//     ReadChunk returned last) must have been typed by the time the driver
//     asks for the next chunk: input that nobody typed (a filter character a
//     person typed) is a mismatch with Got `""`, found when ReadChunk is
//     called, and is skipped. The one chunk of slack lets a driver read the
//     next chunk to see that the screen settled before it answers.
//   - Input recorded after the last output stays pending: PendingInput.
type Replay struct {
	mu     sync.Mutex
	cast   *Cast
	next   int           // index of the next event ReadChunk looks at
	cur    int           // index of the output event returned last, -1 before
	at     time.Duration // its time: the driver's position on the virtual clock
	cols   int           // recorded window size as of the driver's position
	rows   int
	closed bool

	input      []byte      // all recorded "i" data, concatenated
	spans      []inputSpan // one per "i" event, in order
	matched    int         // bytes of input typed (or skipped) so far
	mismatches []KeyMismatch
}

// inputSpan places one "i" event in the concatenated input stream.
type inputSpan struct {
	start int           // offset of its first byte in Replay.input
	event int           // its index in Cast.Events
	at    time.Duration // its recorded time
}

// KeyMismatch is a difference between what the driver typed and what the
// recording says was typed. Want and Got are Go-quoted (strconv.Quote), so
// control keys are readable.
type KeyMismatch struct {
	// At is the recorded time of the input at Index, or the driver's
	// position when the recording has no more input.
	At time.Duration
	// Want is the recorded input the driver should have typed; Got what it
	// typed: `""` when it typed nothing (missing input).
	Want, Got string
	// Index is the byte offset of Want in the recorded input stream.
	Index int
}

// Error says what differed and where.
func (m *KeyMismatch) Error() string {
	if m.Got == `""` {
		return fmt.Sprintf("replay: the recording typed %s at %v (input byte %d) but the driver never did",
			m.Want, m.At, m.Index)
	}
	return fmt.Sprintf("replay: the driver typed %s where the recording typed %s at %v (input byte %d)",
		m.Got, m.Want, m.At, m.Index)
}

// NewReplay prepares c for playback from its start. c must not be changed
// while the replay is in use.
func NewReplay(c *Cast) *Replay {
	r := &Replay{cast: c, cur: -1, cols: c.Header.Width, rows: c.Header.Height}
	for i, e := range c.Events {
		if e.Code == CodeInput && e.Data != "" {
			r.spans = append(r.spans, inputSpan{start: len(r.input), event: i, at: e.Time})
			r.input = append(r.input, e.Data...)
		}
	}
	return r
}

// ReadChunk returns the next recorded output ("o" event) and its recorded
// time, at once: time is virtual. It returns io.EOF after the last one, at
// the time of the recording's last event, and after Close. Resize events
// it passes update Size.
func (r *Replay) ReadChunk() ([]byte, time.Duration, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, r.at, io.EOF
	}
	if r.cur >= 0 {
		r.skipMissing(r.inputBefore(r.cur))
	}
	for r.next < len(r.cast.Events) {
		i := r.next
		e := r.cast.Events[i]
		r.next++
		switch e.Code {
		case CodeResize:
			if c, rw, ok := parseSize(e.Data); ok {
				r.cols, r.rows = c, rw
			}
		case CodeOutput:
			r.cur, r.at = i, e.Time
			return []byte(e.Data), e.Time, nil
		}
	}
	// The program ended when the recording did (its exit event, or the
	// last keys typed at its last screen), not at its last output: a
	// question it asked last was up until then.
	end := r.at
	if n := len(r.cast.Events); n > 0 {
		end = max(end, r.cast.Events[n-1].Time)
	}
	return nil, end, io.EOF
}

// Write compares p, typed by the driver, with the recorded input (see the
// type's comment). It returns len(p) and, when p differs from the
// recording, a *KeyMismatch (also kept for Mismatches).
func (r *Replay) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0, errors.New("replay: Write after Close")
	}
	rest := r.input[r.matched:]
	n := 0
	for n < len(p) && n < len(rest) && p[n] == rest[n] {
		n++
	}
	if n == len(p) {
		r.matched += n
		return n, nil
	}
	// Skip the recorded answer to what the driver has seen: the input
	// before the next unread output, or at least the rest of one event.
	end := max(r.inputBefore(r.nextOutput()), r.spanEnd(r.matched))
	m := r.mismatch(end, string(p))
	r.matched = end
	return len(p), m
}

// Equivalent is what else counts as the answer a driver types: the
// recording is compared by what an answer means, not by its bytes.
type Equivalent struct {
	// Also are other keys with the same meaning: Y or yes for y, Enter
	// for the default a question shows.
	Also [][]byte
	// AnyLine accepts any recorded keys up to an Enter that do not start
	// with Ctrl-C or a lone Esc: a menu choice made another way (arrows,
	// typing to filter) is still a choice.
	AnyLine bool
	// Optional keys (the driver's own, such as unfolding output) may be
	// missing from the recording: then nothing is consumed and nothing is
	// a mismatch.
	Optional bool
}

// WriteEquivalent is Write for an answer with equivalents: p, or any of
// eq's equivalents, continuing the recorded input is a match and consumes
// what the recording typed. It returns len(p) and, for a different
// decision, a *KeyMismatch (kept for Mismatches), after which the replay
// goes on from the recording.
func (r *Replay) WriteEquivalent(p []byte, eq Equivalent) (int, error) {
	return r.WriteAnswer(p, eq.Also, eq.AnyLine, eq.Optional)
}

// WriteAnswer is WriteEquivalent with the equivalents as plain arguments,
// for a driver that does not import this package (ptyhost).
func (r *Replay) WriteAnswer(p []byte, also [][]byte, anyLine, optional bool) (int, error) {
	eq := Equivalent{Also: also, AnyLine: anyLine, Optional: optional}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0, errors.New("replay: Write after Close")
	}
	rest := r.input[r.matched:]
	if KeysPrefix(rest, p) {
		r.matched += len(p)
		return len(p), nil
	}
	for _, alt := range eq.Also {
		if len(alt) > 0 && KeysPrefix(rest, alt) {
			r.matched += len(alt)
			return len(p), nil
		}
	}
	if eq.AnyLine && len(rest) > 0 && rest[0] != 0x03 && !(rest[0] == 0x1b && (len(rest) == 1 || rest[1] == '\r' || rest[1] == 0x1b)) {
		if i := bytes.IndexAny(rest, "\r\n"); i >= 0 && !bytes.Contains(rest[:i], []byte{0x03}) {
			r.matched += i + 1
			return len(p), nil
		}
	}
	if eq.Optional {
		return len(p), nil
	}
	end := max(r.inputBefore(r.nextOutput()), r.spanEnd(r.matched))
	m := r.mismatch(end, string(p))
	r.matched = end
	return len(p), m
}

// KeysPrefix reports whether the recorded input in starts with keys, key
// by key: a lone Esc is not the start of an arrow key's escape sequence
// (ESC [ B), which is another key.
func KeysPrefix(in, keys []byte) bool {
	if !bytes.HasPrefix(in, keys) {
		return false
	}
	n := len(keys)
	return n == 0 || keys[n-1] != 0x1b || n == len(in) || in[n] != '[' && in[n] != 'O'
}

// TypedHere is the input recorded after the output the driver is at and
// before the next one: what was typed at the screen the driver sees. held
// says the driver has not been given the output ReadChunk returned last
// (it holds it back until its time): the screen is the one before it.
func (r *Replay) TypedHere(held bool) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	end := r.inputBefore(r.nextOutput())
	if held && r.cur >= 0 {
		end = r.inputBefore(r.cur)
	}
	if end <= r.matched {
		return ""
	}
	return string(r.input[r.matched:end])
}

// TypedUntil is the recorded time of the last input consumed so far: an
// answer matched by meaning may take keys the person typed while the
// program redrew (typing to filter a menu); the screens before that time
// show the person's answer in progress, not new questions.
func (r *Replay) TypedUntil() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.matched == 0 || len(r.spans) == 0 {
		return 0
	}
	return r.spans[r.spanOf(r.matched-1)].at
}

// NextInputAt is the recorded time of the next input not typed yet, and
// false when none is left: when a person pressed the key the driver is
// about to type (the Enter after a prompt they typed, seconds later).
func (r *Replay) NextInputAt() (time.Duration, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.matched >= len(r.input) {
		return 0, false
	}
	return r.spans[r.spanOf(r.matched)].at, true
}

// Mismatches returns every mismatch so far, in order.
func (r *Replay) Mismatches() []KeyMismatch {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]KeyMismatch(nil), r.mismatches...)
}

// PendingInput returns the recorded input not yet typed (nor skipped after
// a mismatch), raw: for the final report of a replay.
func (r *Replay) PendingInput() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(r.input[r.matched:])
}

// Size is the recorded window size at the driver's position: the header's,
// changed by the resize events ReadChunk has passed. The driver resizes its
// screen to match.
func (r *Replay) Size() (cols, rows int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cols, r.rows
}

// Resize accepts the driver's window size and otherwise ignores it: the
// recorded program already drew for the recorded size (see Size).
func (r *Replay) Resize(cols, rows int) error {
	if cols <= 0 || rows <= 0 {
		return fmt.Errorf("replay: window size %dx%d is not positive", cols, rows)
	}
	return nil
}

// ExitCode is how the recorded program ended, from the cast's exit event.
// signal is always empty: a cast stores a number, and a child killed by
// signal N was recorded as 128+N. A cast without an exit event (asciinema 2
// writes none) reports 0: the recording ended normally.
func (r *Replay) ExitCode() (code int, signal string) {
	status, _ := r.cast.ExitStatus()
	return status, ""
}

// Close ends the replay: ReadChunk returns io.EOF, Write an error. It
// always returns nil and may be called more than once.
func (r *Replay) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	return nil
}

// Live is false: a replay runs on a virtual clock and nobody sleeps.
func (r *Replay) Live() bool { return false }

// Cast returns the recording being replayed.
func (r *Replay) Cast() *Cast { return r.cast }

// skipMissing reports recorded input before offset end that was not typed,
// and skips it; r.mu is held.
func (r *Replay) skipMissing(end int) {
	if r.matched < end {
		r.mismatch(end, "")
		r.matched = end
	}
}

// mismatch records that the driver typed got where the recording has
// input[matched:end]; r.mu is held.
func (r *Replay) mismatch(end int, got string) *KeyMismatch {
	at := r.at
	if r.matched < len(r.input) {
		at = r.spans[r.spanOf(r.matched)].at
	}
	m := KeyMismatch{
		At:    at,
		Want:  strconv.Quote(string(r.input[r.matched:end])),
		Got:   strconv.Quote(got),
		Index: r.matched,
	}
	r.mismatches = append(r.mismatches, m)
	return &m
}

// nextOutput is the index of the next output event ReadChunk will return,
// or len(Events) at the end.
func (r *Replay) nextOutput() int {
	i := r.next
	for i < len(r.cast.Events) && r.cast.Events[i].Code != CodeOutput {
		i++
	}
	return i
}

// inputBefore is the number of input bytes recorded before event index ev.
func (r *Replay) inputBefore(ev int) int {
	i := sort.Search(len(r.spans), func(i int) bool { return r.spans[i].event >= ev })
	if i == len(r.spans) {
		return len(r.input)
	}
	return r.spans[i].start
}

// spanOf is the index of the span holding input offset off (< len(input)).
func (r *Replay) spanOf(off int) int {
	return sort.Search(len(r.spans), func(i int) bool { return r.spans[i].start > off }) - 1
}

// spanEnd is the end offset of the span holding off, or len(input).
func (r *Replay) spanEnd(off int) int {
	if off >= len(r.input) {
		return len(r.input)
	}
	if i := r.spanOf(off) + 1; i < len(r.spans) {
		return r.spans[i].start
	}
	return len(r.input)
}

// PlayTo plays the recording from its start into a screen of the caller's
// (write takes output, resize a window size), up to the key to bytes into
// the pending input (PendingInput()[to]): what the person saw just before
// pressing it, after the program drew what their keys before it did. to
// at or past the end of the pending input plays the recording to its end.
// write's typed is how many bytes of the pending input were typed before
// the output came (0 for output before its first key). It is how a replay
// looks at what the screen did next after keys it reads for their meaning.
func (r *Replay) PlayTo(to int, write func(out []byte, typed int), resize func(cols, rows int)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	resize(r.cast.Header.Width, r.cast.Header.Height)
	end := len(r.cast.Events)
	if off := r.matched + to; to >= 0 && off < len(r.input) {
		end = r.spans[r.spanOf(off)].event
	}
	span := 0 // the first input span not typed before the output at hand
	for i, e := range r.cast.Events[:end] {
		switch e.Code {
		case CodeOutput:
			for span < len(r.spans) && r.spans[span].event < i {
				span++
			}
			typed := len(r.input)
			if span < len(r.spans) {
				typed = r.spans[span].start
			}
			write([]byte(e.Data), max(typed-r.matched, 0))
		case CodeResize:
			if c, rw, ok := parseSize(e.Data); ok {
				resize(c, rw)
			}
		}
	}
}

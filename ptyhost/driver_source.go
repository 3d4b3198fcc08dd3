package ptyhost

import (
	"context"
	"sync"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
)

// clock is the session's time: wall time live, the recording's own time in
// a replay. The driver reads it and never sleeps.
type clock interface {
	now() time.Duration
	// reach moves a virtual clock on to t; a wall clock ignores it.
	reach(t time.Duration)
}

type wallClock struct{ start time.Time }

func (c *wallClock) now() time.Duration  { return time.Since(c.start) }
func (c *wallClock) reach(time.Duration) {}

type virtualClock struct{ t time.Duration }

func (c *virtualClock) now() time.Duration { return c.t }
func (c *virtualClock) reach(t time.Duration) {
	if t > c.t {
		c.t = t
	}
}

// eventKind says what a source delivered.
type eventKind int

const (
	evOutput  eventKind = iota // the program printed data
	evEnd                      // its output ended (err: io.EOF or why)
	evControl                  // a frame from the GUI (ok false: stdin ended)
	evAnswer                   // a replay script's answer to the waiting question
	evTimer                    // a deadline passed
	evCancel                   // ctx ended: yume-cli was told to stop
)

// event is one thing that happened, at a time on the session's clock.
type event struct {
	kind       eventKind
	at         time.Duration
	data       []byte
	pooled     *[]byte // data's buffer, returned to the pool after use
	cols, rows int     // a replay's recorded window size (0 = unchanged)
	err        error
	control    emit.Control
	ok         bool
	answer     permission.Answer
	asRecorded bool // answer as the recording did (driver.recordedAnswer)
}

// release returns a live chunk's buffer to the pool.
func (e event) release() {
	if e.pooled != nil {
		*e.pooled = (*e.pooled)[:0]
		chunkPool.Put(e.pooled)
	}
}

// source feeds the driver's loop: a live program (liveSource) or a
// recording (replaySource).
type source interface {
	// next returns the next event: output, a control frame, the deadline
	// (0 = none) passing, or ctx's end. waiting is the question the GUI
	// has not answered yet, or nil.
	next(ctx context.Context, deadline time.Duration, waiting *pending) event
	// canAsk reports whether anyone answers questions at all.
	canAsk() bool
	stop()
}

// liveSource reads a live terminal in a goroutine, so reading the PTY
// overlaps with parsing, and waits on output, frames, one timer and ctx.
type liveSource struct {
	clock    *wallClock
	chunks   chan event
	controls <-chan emit.Control
	done     chan struct{}
	timer    *time.Timer
	// exited is closed when the program itself exits (nil: never); held
	// then bounds how long its terminal may stay open after it.
	exited <-chan struct{}
	held   <-chan time.Time
}

var chunkPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

func newLiveSource(t Terminal, controls <-chan emit.Control) *liveSource {
	s := &liveSource{clock: &wallClock{start: time.Now()}, chunks: make(chan event, 8), controls: controls, done: make(chan struct{}), exited: exitedChan(t)}
	go s.read(t)
	return s
}

// read copies the terminal's chunks into pooled buffers.
func (s *liveSource) read(t Terminal) {
	for {
		data, _, err := t.ReadChunk()
		if len(data) > 0 {
			bp := chunkPool.Get().(*[]byte)
			*bp = append((*bp)[:0], data...)
			if !s.send(event{kind: evOutput, data: *bp, pooled: bp}) {
				return
			}
		}
		if err != nil {
			s.send(event{kind: evEnd, err: err})
			return
		}
	}
}

func (s *liveSource) send(e event) bool {
	select {
	case s.chunks <- e:
		return true
	case <-s.done:
		return false
	}
}

func (s *liveSource) next(ctx context.Context, deadline time.Duration, _ *pending) event {
	var timeout <-chan time.Time
	if deadline != 0 {
		wait := deadline - s.clock.now()
		if s.timer == nil {
			s.timer = time.NewTimer(wait)
		} else {
			s.timer.Reset(wait) // Go ≥1.23: Reset drains a fired timer
		}
		timeout = s.timer.C
	}
	var e event
	select {
	case e = <-s.chunks:
	case <-s.exited:
		s.exited, s.held = nil, time.After(heldGrace)
		return s.next(ctx, deadline, nil)
	case <-s.held:
		select {
		case e = <-s.chunks: // what it printed comes first
			s.held = time.After(heldGrace)
		default:
			e = event{kind: evEnd, err: errTerminalHeld}
		}
	case f, ok := <-s.controls:
		e = event{kind: evControl, control: f, ok: ok}
		if !ok {
			s.controls = nil
		}
	case <-timeout:
		e = event{kind: evTimer}
	case <-ctx.Done():
		e = event{kind: evCancel}
	}
	e.at = s.clock.now()
	return e
}

func (s *liveSource) canAsk() bool { return s.controls != nil }

func (s *liveSource) stop() {
	close(s.done)
	if s.timer != nil {
		s.timer.Stop()
	}
}

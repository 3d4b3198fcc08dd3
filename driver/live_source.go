package driver

import (
	"context"
	"github.com/yume-cli/yume-cli/ptyhost"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/yume-cli/yume-cli/emit"
)

// liveSource reads a live terminal in a goroutine of its own, which also
// parses each chunk into the screen. A flood then costs no hand-off
// between goroutines per chunk: measured, a channel hop per 4 KiB read
// alone cost 13% of the raw drain's throughput. The driver hears of
// output once per pause it waits for, not once per chunk.
//
// mu guards the screen and everything its Write reaches (the capture of
// retired lines, query replies, the trace): the driver holds it at all
// times except while it waits in next, the reader while it parses a chunk.
type liveSource struct {
	clock   *wallClock
	mu      sync.Mutex
	screen  io.Writer
	outAt   time.Duration // under mu: when the newest chunk the driver has not seen was parsed (0: none)
	wakeBy  time.Duration // under mu: the driver's own deadline while it waits (0: none)
	stopped bool          // under mu: the driver is gone; parse nothing more
	wakes   int           // under mu: chunks that woke the driver
	// inHand is set while the reader holds a chunk it has read and not
	// parsed yet: output the program printed that the screen lacks.
	inHand   atomic.Bool
	wake     chan struct{} // output the driver must hear of before its deadline
	ends     chan event    // the reader's last event
	pending  *event        // an event that waits behind output parsed before it
	controls <-chan emit.Control
	timer    *time.Timer
	// exited is closed when the program itself exits (nil: never); held
	// then bounds how long its terminal may stay open after it.
	exited <-chan struct{}
	held   <-chan time.Time
}

func newLiveSource(t ptyhost.Terminal, controls <-chan emit.Control) *liveSource {
	return &liveSource{clock: &wallClock{start: time.Now()}, wake: make(chan struct{}, 1),
		ends: make(chan event, 1), controls: controls, exited: ptyhost.Exited(t)}
}

// start reads t, parsing its output into screen. The caller, the driver,
// holds mu from here on, as next expects.
func (s *liveSource) start(t ptyhost.Terminal, screen io.Writer) {
	s.screen = screen
	s.mu.Lock()
	go s.read(t)
}

// read parses the terminal's chunks as they come, then hands on how its
// output ended.
func (s *liveSource) read(t ptyhost.Terminal) {
	for {
		data, _, err := t.ReadChunk()
		if len(data) > 0 {
			s.inHand.Store(true)
			if !s.fed(data) {
				return
			}
			s.inHand.Store(false)
		}
		if err != nil {
			s.ends <- event{kind: evEnd, err: err}
			return
		}
	}
}

// fed parses one chunk and wakes the driver only when it would otherwise
// look later than a pause after this chunk could end (wakeBy): output
// moves its pause deadline on, so a driver already due that soon learns
// of the chunk when it wakes. It reports false once the driver is gone.
func (s *liveSource) fed(data []byte) bool {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return false
	}
	_, _ = s.screen.Write(data) // a screen takes every byte
	at := s.clock.now()
	wake := s.outAt == 0 && (s.wakeBy == 0 || s.wakeBy > at+soon)
	s.outAt = at
	if wake {
		s.wakes++
	}
	s.mu.Unlock()
	if wake {
		select {
		case s.wake <- struct{}{}:
		default: // one wake-up is pending already
		}
	}
	return true
}

// output is the output parsed since the driver last looked, as one event.
func (s *liveSource) output() (event, bool) {
	if s.outAt == 0 {
		return event{}, false
	}
	e := event{kind: evOutput, at: s.outAt, fed: true}
	s.outAt = 0
	return e, true
}

// next releases the screen to the reader while it waits for output, a
// frame, the deadline or ctx's end, and takes it back before it returns.
// Output parsed before another event is reported first.
func (s *liveSource) next(ctx context.Context, deadline time.Duration, _ *pending) event {
	if e, ok := s.output(); ok {
		return e
	}
	if e := s.pending; e != nil {
		s.pending = nil
		return *e
	}
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
	for {
		e, ok := s.wait(ctx, deadline, timeout)
		e.at = s.clock.now()
		if out, printed := s.output(); printed {
			if ok {
				s.pending = &e
			}
			return out
		}
		if ok {
			return e
		}
	}
}

// wait is next's select, with mu released. ok is false when what woke it
// is no event of its own (output, or the program's exit starting the
// held-terminal grace); next then looks again.
func (s *liveSource) wait(ctx context.Context, deadline time.Duration, timeout <-chan time.Time) (e event, ok bool) {
	s.wakeBy = deadline
	s.mu.Unlock()
	defer s.mu.Lock()
	select {
	case <-s.wake:
		return event{}, false
	case e = <-s.ends:
		return e, true
	case <-s.exited:
		s.exited, s.held = nil, time.After(ptyhost.HeldGrace)
		return event{}, false
	case <-s.held:
		select {
		case e = <-s.ends: // how it ended comes first
			return e, true
		default:
		}
		s.held = time.After(ptyhost.HeldGrace) // printing goes on: look again later
		s.mu.Lock()
		printed := s.outAt != 0
		s.mu.Unlock()
		if printed {
			return event{}, false
		}
		return event{kind: evEnd, err: ptyhost.ErrTerminalHeld}, true
	case f, open := <-s.controls:
		if !open {
			s.controls = nil
		}
		return event{kind: evControl, control: f, ok: open}, true
	case <-timeout:
		return event{kind: evTimer}, true
	case <-ctx.Done():
		return event{kind: evCancel}, true
	}
}

func (s *liveSource) canAsk() bool { return s.controls != nil }

// stop ends the session's use of the screen: the reader parses nothing
// more and stops at its next chunk. The driver holds mu when it calls stop.
func (s *liveSource) stop() {
	s.stopped = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
}

package driver

import (
	"context"
	"io"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/vt"
)

// liveSource is a live program: a ptyhost.Reader drains its terminal in a
// goroutine of its own while the driver, in its own, parses what the
// reader took and evaluates it. Reading and parsing overlap, so the
// program never waits on a full terminal while a chunk is parsed (taking
// turns in one goroutine, they ran at 0.54–0.66× a raw drain as a whole
// process). The driver takes everything ready in one hand-off, and hears
// of output once per pause it waits for, not once per chunk.
type liveSource struct {
	clock  *wallClock
	term   ptyhost.Terminal
	reader *ptyhost.Reader
	screen io.Writer
	// wakeBy is the driver's own deadline while it waits (0: none; -1: it
	// is not waiting, and looks at the ring before it does): output that
	// lands before a pause after it could end need not wake it.
	wakeBy atomic.Int64
	wake   chan struct{} // output the driver must hear of before its deadline
	// asking: output held ends with a question to the terminal; the
	// program waits for the answer the parse gives (ptyhost.Reader.SetAsking).
	asking   atomic.Bool
	wakes    atomic.Int64 // times output woke the driver
	pending  *event       // an event that waits behind output taken before it
	ended    bool         // the end of output was reported
	controls <-chan emit.Control
	timer    *wakeTimer // made on the first wait
	// The look at a paused program (source_live_look.go).
	looks looks
	// exited is closed when the program itself exits (nil: never); held
	// then bounds how long its terminal may stay open after it.
	exited <-chan struct{}
	held   <-chan time.Time
}

func newLiveSource(t ptyhost.Terminal, controls <-chan emit.Control) *liveSource {
	s := &liveSource{clock: &wallClock{start: time.Now()}, term: t, wake: make(chan struct{}, 1),
		controls: controls, exited: ptyhost.Exited(t)}
	s.wakeBy.Store(-1)
	s.reader = ptyhost.NewReader(t, ptyhost.DefaultRing, s.arrived, s.filling)
	s.reader.SetAsking(vt.EndsAsking, s.asked)
	// On the driver's clock: the terminal's own times start with the
	// program, earlier, and a chunk timed ahead of the driver's deadlines
	// would fire them early (a retry typed at once, not after a still second).
	s.reader.SetClock(s.clock.now)
	return s
}

// start reads the terminal; what it printed is parsed into screen by the
// driver's own goroutine, in next.
func (s *liveSource) start(screen io.Writer) {
	s.screen = screen
	s.reader.Start()
}

// arrived wakes the driver for output landing in an empty ring, unless it
// is due to look by the time a pause after this output could end anyway.
func (s *liveSource) arrived(at time.Duration) {
	if by := time.Duration(s.wakeBy.Load()); by < 0 || by != 0 && by <= at+soon {
		return
	}
	s.wakes.Add(1)
	select {
	case s.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
}

// due reports output the driver must take before its deadline: a pause
// after it could end before then, or the deadline has come, or the ring
// holds a batch. Output that arrived when the driver was due soon anyway
// waits in the ring, so a flood is parsed in batches.
func (s *liveSource) due(deadline time.Duration) bool {
	held, since := s.reader.Since()
	switch {
	case !held:
		return false
	case deadline == 0 || since+soon < deadline || s.asking.Load():
		return true
	}
	return s.clock.now() >= deadline || s.reader.Filling()
}

// asked wakes the driver for output that ends with a question to the
// terminal: the program waits for its answer, so it is parsed now, not
// when a pause after it could end.
func (s *liveSource) asked() {
	s.asking.Store(true)
	s.filling()
}

// filling wakes the driver for a batch held: it parses the batch now, as
// the reader yields to it (ptyhost.Reader).
func (s *liveSource) filling() {
	if s.wakeBy.Load() < 0 {
		return // not waiting: it looks before it does
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// output parses everything the reader holds, as one event.
func (s *liveSource) output() (event, bool) {
	// Cleared before the take: a question read after it is not lost.
	s.asking.Store(false)
	n, at := s.reader.Take(func(p []byte) { _, _ = s.screen.Write(p) }) // a screen takes every byte
	if n == 0 {
		return event{}, false
	}
	return event{kind: evOutput, at: at, fed: true}, true
}

// batch parses a batch of a flood (the reader yielded to it), as one event,
// when nothing is due before deadline: the screen skips the lines that
// scroll off (vt.Screen.Skip) and leaves the last screenful in the ring,
// to be skipped in turn by the next batch or drawn once the flood pauses.
// The screen is not read before then: every event but a batch's parses all
// that is held first, and the deadline is when a timer reads it.
func (s *liveSource) batch(deadline time.Duration) (event, bool) {
	sk, ok := s.screen.(skipper)
	if !ok || deadline != 0 && s.clock.now() >= deadline || !s.reader.Filling() {
		return s.output()
	}
	n, at := s.reader.TakeSome(func(p []byte) int {
		if k := sk.Skip(p); k > 0 {
			return k
		}
		_, _ = s.screen.Write(p)
		return len(p)
	})
	if n == 0 {
		return event{}, false
	}
	return event{kind: evOutput, at: at, fed: true}, true
}

// skipper is a screen that can skip what would scroll off unseen.
type skipper interface{ Skip(p []byte) int }

// next waits for output, a frame, the deadline or ctx's end. Output read
// before another event is parsed and reported first.
func (s *liveSource) next(ctx context.Context, deadline time.Duration, _ *pending) event {
	if s.due(deadline) {
		if e, ok := s.batch(deadline); ok {
			return e
		}
	}
	if e := s.pending; e != nil {
		// It waited behind output; more may have come since, in a batch
		// taken in part: all of it is parsed before the event is seen.
		out, printed := s.output()
		if e.kind == evPaused && (printed || !s.stillPaused(*e)) {
			s.pending = nil // it printed after the look: that pause is over
		}
		if printed {
			return out
		}
		if s.pending != nil {
			s.pending = nil
			return s.settled(*e)
		}
	}
	if s.timer == nil {
		s.timer = newWakeTimer()
	}
	for {
		wake, looking := s.wakeAt(deadline)
		var timeout <-chan struct{}
		if wake != 0 {
			timeout = s.timer.set(wake - s.clock.now())
		}
		e, ok := s.wait(ctx, deadline, timeout)
		e.at = s.clock.now()
		if !ok { // woken by output
			if out, printed := s.batch(deadline); printed {
				return out
			}
			continue
		}
		if e.kind == evTimer && (e.at < wake || looking) {
			if e.at >= wake {
				if l, ok := s.look(); ok {
					return l
				}
			}
			continue // a fire armed before, or nothing to tell: wait on
		}
		if out, printed := s.output(); printed { // what came before e, first
			s.pending = &e
			return out
		}
		return s.settled(e)
	}
}

// settled hands e to the driver once every byte read before it was parsed:
// a chunk a read returned just now, still on its way into the ring, is
// waited for (a timer must never read a screen behind what was read). A
// batch's output is the one event that may leave output held.
func (s *liveSource) settled(e event) event {
	for {
		read, taken := s.reader.Settled()
		if read == taken {
			e.read = read
			return e
		}
		if _, printed := s.output(); !printed {
			runtime.Gosched() // it is in hand, between its read and the ring
		}
	}
}

// wait is next's select. ok is false when what woke it is no event of its
// own (output, or the program's exit starting the held-terminal grace);
// next then looks again.
func (s *liveSource) wait(ctx context.Context, deadline time.Duration, timeout <-chan struct{}) (e event, ok bool) {
	s.wakeBy.Store(int64(deadline))
	defer s.wakeBy.Store(-1)
	if s.due(deadline) { // arrived before wakeBy was set: it may not have woken us
		return event{}, false
	}
	ended := s.reader.Ended()
	if s.ended {
		ended = nil
	}
	select {
	case <-s.wake:
		return event{}, false
	case <-ended:
		if s.reader.Held() {
			return event{}, false // what it printed last comes first
		}
		s.ended = true
		return event{kind: evEnd, err: s.reader.Err()}, true
	case <-s.exited:
		s.exited, s.held = nil, time.After(ptyhost.HeldGrace)
		return event{}, false
	case <-s.held:
		select {
		case <-ended: // how it ended comes first
			return event{}, false
		default:
		}
		s.held = time.After(ptyhost.HeldGrace) // printing goes on: look again later
		if s.reader.Held() {
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

// stop ends the reader's use of the ring.
func (s *liveSource) stop() {
	s.reader.Stop()
	if s.timer != nil {
		s.timer.stop()
	}
}

// blockedOnKeys reports that the program reads its terminal and nothing
// it printed is left unread or unparsed.
func (s *liveSource) blockedOnKeys() bool {
	// Unread output (one ioctl) first: during a flood it rules out the
	// /proc walk.
	return !s.reader.Held() && ptyhost.UnreadOf(s.term) == 0 && s.inputWait() == ptyhost.InputReading
}

// readsKeys reports that the program waits for keys (blocked reading its
// terminal, or polling it) with everything it printed taken; known is
// false where the platform cannot tell.
func (s *liveSource) readsKeys() (reads, known bool) {
	st := s.inputWait()
	if st == ptyhost.InputUnknown {
		return false, false
	}
	idle := st == ptyhost.InputReading || st == ptyhost.InputPolling
	return idle && !s.reader.Held() && ptyhost.UnreadOf(s.term) == 0, true
}

func (s *liveSource) keyWaiters() ptyhost.Waiters { return ptyhost.WaitersOf(s.term) }

// tookKeys: the keys are not even written while the key writer holds
// them; written, they reach the program only when the kernel hands them
// on, and then a waiter wakes.
func (s *liveSource) tookKeys(w ptyhost.Waiters) (took, known bool) {
	if kw, ok := ptyhost.As[*ptyhost.KeyWriter](s.term); ok && kw.Pending() > 0 {
		return false, true
	}
	return ptyhost.WokeSince(s.term, w)
}

// onCPU reports that the program is running right now.
func (s *liveSource) onCPU() bool { return s.inputWait() == ptyhost.InputRunning }

func (s *liveSource) cpuTime() (uint64, bool) { return ptyhost.CPUTimeOf(s.term) }

// recording is nil: a live program has no recording behind it.
func (s *liveSource) recording() *replaySource { return nil }

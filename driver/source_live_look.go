package driver

import (
	"time"

	"github.com/yume-cli/yume-cli/ptyhost"
)

// looks is the live source's look at a paused program: once output pauses
// pauseLook, everything held is drawn and, where the program blocks
// reading its terminal with all of it parsed, the driver is told at once
// (evPaused), not after soon.
type looks struct {
	looked int64 // bytes that had reached the ring at the last look: one look a pause
	off    bool  // the program polls (it never blocks reading) or cannot be looked at
	// The last look saw the program blocked reading at the reader's mark
	// (ptyhost.Reader.Idle) readMark, at readAt: inputWait trusts it while
	// nothing was read since, for pauseLook.
	reading  bool
	readMark uint64
	readAt   time.Duration
	running  bool // the last look found it on a CPU
	// expected is how many looks are left for a program the driver
	// expects to read its terminal (expectKeys), the next at again, each
	// step twice the one before.
	expected    int
	again, step time.Duration
}

// pauseLook is how long output pauses before the live source looks at the
// program (look): a quarter of soon, so a question is asked well before
// soon where the program already waits for keys. A flood pauses this long
// seldom, and each look reads /proc (0.1–0.3 ms): on a machine at load 22,
// 100 MiB of flood -fast paused so 123 times (80 at 1 ms, 363 at 0.25 ms),
// of Sprintf-built lines 228 times (200, 567).
const pauseLook = soon / 4

// expectLooks is how many times the source looks again at a program the
// driver expects to read (0.5, 1, 2, 4, 8 and 16 ms on): within the
// quiet period, after which the driver looks itself.
const expectLooks = 6

// wakeAt is when next wakes: at the deadline, or before it to look at the
// program (looking): once output paused pauseLook, once per pause, and
// again while the driver expects the program to read.
func (s *liveSource) wakeAt(deadline time.Duration) (time.Duration, bool) {
	if s.looks.off {
		return deadline, false
	}
	put, at := s.reader.Newest()
	look := at + pauseLook
	switch {
	case put != s.looks.looked:
	case s.looks.expected > 0:
		look = s.looks.again
	default:
		return deadline, false
	}
	if deadline == 0 || look < deadline {
		return look, true
	}
	return deadline, false
}

// look draws everything held once output paused, then looks at the
// program: one that reads its terminal with everything it printed parsed
// ends the pause now (evPaused, after the output drawn if any), not after
// soon. ok is false when there is nothing to tell: output went on, or the
// program does not wait for keys.
func (s *liveSource) look() (event, bool) {
	put, at := s.reader.Newest()
	now := s.clock.now()
	if now < at+pauseLook {
		return event{}, false // output went on: a later pause
	}
	fresh := put != s.looks.looked // the first look of this pause
	out, printed := s.output()     // drawn as soon as output paused; the driver's deadlines move
	s.looks.looked, _ = s.reader.Newest()
	if s.looks.expected > 0 {
		s.looks.expected--
		s.looks.step *= 2
		s.looks.again = now + s.looks.step
	}
	paused, ok := s.paused()
	if !ok && fresh && s.looks.expected == 0 && s.looks.running {
		// On a CPU just after it printed (sh between its printf and its
		// read, a loaded machine): once more, before the driver's soon.
		s.looks.expected, s.looks.step, s.looks.again = 1, pauseLook, now+pauseLook
	}
	switch {
	case ok && printed:
		s.pending = &paused // handed over next, unless more output comes first
		return out, true
	case ok:
		return paused, true
	}
	return out, printed
}

// paused is evPaused when the program is blocked reading its terminal and
// everything it printed before is parsed.
func (s *liveSource) paused() (event, bool) {
	// Nothing read between the reader's two marks: what the program
	// printed before it was seen reading (and is not unread after) is
	// parsed. In this order: unread output is asked for after the walk.
	s.looks.running = false
	mark, idle := s.reader.Idle()
	if !idle {
		return event{}, false
	}
	st := s.inputWait()
	if s.looks.running = st == ptyhost.InputRunning; st != ptyhost.InputReading || ptyhost.UnreadOf(s.term) != 0 {
		return event{}, false
	}
	if again, idle := s.reader.Idle(); !idle || again != mark {
		return event{}, false // it printed as it was looked at: the next pause's look
	}
	read, taken := s.reader.Settled()
	if read != taken {
		return event{}, false // a read just after the second mark: the same
	}
	now := s.clock.now()
	s.looks.reading, s.looks.readMark, s.looks.readAt = true, mark, now
	s.looks.expected = 0
	return event{kind: evPaused, at: now, read: read}, true
}

// stillPaused reports that nothing was read since the look that found e
// (evPaused), so it still holds.
func (s *liveSource) stillPaused(e event) bool {
	read, _ := s.reader.Settled()
	return read == e.read
}

// expectKeys looks at the program again, a few times, to end the pause
// as soon as it reads its terminal: the driver holds a question back
// while the program runs.
func (s *liveSource) expectKeys() {
	if s.looks.off {
		return
	}
	s.looks.expected, s.looks.step = expectLooks, pauseLook
	s.looks.again = s.clock.now() + s.looks.step
}

// inputWait is what the program waits for; one that polls its terminal,
// or cannot be looked at, turns the look at a pause off (it cannot end a
// pause), until a look finds otherwise. A look that found it reading a
// moment ago, with nothing read since, answers without reading /proc
// again (a question is asked right after that look, and asks onCPU).
func (s *liveSource) inputWait() ptyhost.InputState {
	if l := &s.looks; l.reading && s.clock.now() < l.readAt+pauseLook {
		if mark, idle := s.reader.Idle(); idle && mark == l.readMark && ptyhost.UnreadOf(s.term) == 0 {
			return ptyhost.InputReading
		}
	}
	s.looks.reading = false
	st := ptyhost.InputWaitOf(s.term)
	s.looks.off = st == ptyhost.InputPolling || st == ptyhost.InputUnknown
	return st
}

package driver

import (
	"context"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
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
	evPaused                   // live: output paused, and the program waits for keys with all of it parsed
	evCancel                   // ctx ended: yume-cli was told to stop
)

// event is one thing that happened, at a time on the session's clock.
type event struct {
	kind       eventKind
	at         time.Duration
	data       []byte
	fed        bool // output already on the screen: the live reader parsed it
	cols, rows int  // a replay's recorded window size (0 = unchanged)
	err        error
	control    emit.Control
	ok         bool
	answer     permission.Answer
	asRecorded bool // answer as the recording did (driver.recordedAnswer)
	// read is, for a live event other than output, how many bytes the
	// program's reads had returned when it was handed over, every one of
	// them parsed (liveSource.settled).
	read int64
}

// source feeds the driver's loop: a live program (liveSource) or a
// recording (replaySource). What only one of them can do is asked of the
// source, never found by probing the terminal's type.
type source interface {
	// next returns the next event: output, a control frame, the deadline
	// (0 = none) passing, or ctx's end. waiting is the question the GUI
	// has not answered yet, or nil.
	next(ctx context.Context, deadline time.Duration, waiting *pending) event
	// canAsk reports whether anyone answers questions at all.
	canAsk() bool
	stop()
	// blockedOnKeys reports that the program waits for keys with all its
	// output on screen (live, Linux; a replay never knows).
	blockedOnKeys() bool
	// onCPU reports that the program is running right now (live, Linux).
	onCPU() bool
	// cpuTime is the CPU time the program has used, in ticks (live,
	// Linux): its growth says it worked since an earlier reading.
	cpuTime() (ticks uint64, ok bool)
	// readsKeys reports that the program waits for keys again, all its
	// output taken (live, Linux); known is false where none can tell.
	readsKeys() (reads, known bool)
	// keyWaiters is who waits for the keys about to be typed (live,
	// Linux), for tookKeys.
	keyWaiters() ptyhost.Waiters
	// tookKeys reports that keys typed after w was taken reached the
	// program: a waiter in w has run since; known is false where none
	// can tell (a replay, or nobody waited when they went).
	tookKeys(w ptyhost.Waiters) (took, known bool)
	// expectKeys asks to be told (evPaused) as soon as the program reads
	// its terminal: a question waits while it runs (live, Linux).
	expectKeys()
	// recording is the recording a replay plays, nil live: what a person
	// typed, compared with what the rules type.
	recording() *replaySource
}

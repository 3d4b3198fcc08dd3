package driver

import (
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// timer names a deadline of the driver's loop. The loop waits for the
// earliest (next), then runs every one due, in this order, each at its
// own time on the clock (advance).
type timer int

const (
	timerSoon  timer = iota // output paused briefly: rules that wait on the cursor
	timerQuiet              // the screen settled: every rule
	timerEnter              // the Enter after a typed prompt (prompt.go)
	timerRetry              // look whether typed keys were taken (retry.go)
	timerKeys               // an answer's next key, or a look at what it did (keying.go)
	timerQuit               // the program did not exit after its quit keys (quit.go)
	timerLog                // read the provider's transcript (transcript.go)
	timerIdle               // the program sat at its input box (bounded.go)
	timerStall              // a logged call waits on a screen no rule reads
	timerError              // a model error: the program gave up, or retried too long (modelerror.go)
	timerTool               // the running command's --tool-timeout
	timerTurn               // the turn's --turn-timeout
	timerCount
)

// perTurn marks the timers that belong to the turn (cleared with it); the
// others belong to the session.
var perTurn = [timerCount]bool{timerEnter: true, timerRetry: true, timerKeys: true, timerIdle: true, timerStall: true, timerError: true, timerTool: true, timerTurn: true}

// deadlines holds when each timer is due on the session clock (0: not set).
type deadlines [timerCount]time.Duration

// next is the earliest deadline, or 0.
func (a *deadlines) next() time.Duration {
	var next time.Duration
	for _, at := range a {
		if at != 0 && (next == 0 || at < next) {
			next = at
		}
	}
	return next
}

// clearTurn clears the deadlines that belong to the turn.
func (a *deadlines) clearTurn() {
	for k, turn := range perTurn {
		if turn {
			a[k] = 0
		}
	}
}

// advance runs the evaluations due by time t, in the table's order, each
// at its own time on the clock.
func (d *driver) advance(t time.Duration) {
	for k := range timerCount {
		if at := d.at[k]; at != 0 && at <= t && d.st != stateEnded {
			d.clock.reach(at)
			d.at[k] = 0
			d.fire(k)
		}
	}
	d.clock.reach(t)
}

// fire runs what timer k is for.
func (d *driver) fire(k timer) {
	switch k {
	case timerSoon:
		d.evaluate(false)
	case timerQuiet:
		d.evaluate(true)
	case timerEnter:
		d.submitPrompt()
	case timerRetry:
		d.retryKeys()
	case timerKeys:
		d.stepKeys()
		d.followAnswer(false)
	case timerQuit:
		d.quitTimer()
	case timerLog:
		d.at[timerLog] = d.nextLogRead()
		d.pollLog()
		if l := &d.t.log; l.waiting != nil { // a question waits for its call
			l.waitStep = nextLogWait(l.waitStep)
			d.at[timerLog] = min(d.at[timerLog], d.now()+l.waitStep)
		}
	case timerIdle:
		d.idleEnd()
	case timerStall:
		d.stalled()
	case timerError:
		d.modelErrorTimer()
	case timerTool:
		d.toolTimeout()
	case timerTurn:
		d.turnTimeout()
	}
}

// soon is how long output must pause before rules that wait on the cursor
// (cursor: end) are tried: short enough for a fast tool_use, long enough
// to skip the middle of a burst.
const soon = 2 * time.Millisecond

// pausedAt ends the pause the rules wait for (soon) at t: the program
// reads its terminal with everything it printed on screen (evPaused), so
// waiting on shows nothing more. A question held back while the program
// ran (stillRunning) is looked at again now, not after the quiet period.
func (d *driver) pausedAt(t time.Duration) {
	if d.at[timerSoon] > t || d.at[timerSoon] == 0 && d.t.runningDeferred > 0 {
		d.at[timerSoon] = t
	}
}

// printedAt schedules what waits for output printed at t to pause: the
// rules, a typed prompt's Enter, keys that may have been dropped.
func (d *driver) printedAt(t time.Duration) {
	if !d.drew {
		d.drew = true
		// A transcript read from the program's own server waits for the
		// server from here: a program not drawing yet is starting, not
		// serverless (two Kilo TUIs on a loaded machine drew first 24 s
		// after their launch).
		if s, ok := transcript.As[transcript.Starting](d.cfg.Transcript); ok {
			s.ProgramDrew()
		}
	}
	d.lastOutput = t
	d.at[timerSoon], d.at[timerQuiet] = t+soon, t+d.quiet
	if d.at[timerEnter] != 0 && !d.t.enterRecorded {
		d.at[timerEnter] = min(t+d.enterDelay(), d.t.enterBy)
	}
	d.watchRetry(t)
	d.startLinesKept()
}

package driver

import (
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// RecordedTranscript is the provider's transcript as a recording made with
// `start --record` holds it: what the live driver read from it, and when
// its reads began.
type RecordedTranscript struct {
	// Found is when the log was first found; < 0: never.
	Found  time.Duration
	Events []LoggedEvent
	// Asked are the recorded times of the live driver's questions, in
	// order (its "question N" markers): what the log held by then, the
	// live driver knew when it asked.
	Asked []time.Duration
}

// LoggedEvent is one event of a transcript, at the recorded time of the
// read that returned it.
type LoggedEvent struct {
	At    time.Duration
	Event transcript.Event
}

// logSlack is how far ahead of the replay's clock a recorded read of the
// log counts as done. A live driver reads the log a little after the
// screen it acts on has settled (its own work, and the read itself), so a
// recorded read lands that much after the moment the replay reaches on
// the recording's clock; without slack a question would wait for a call
// the live driver already had.
const logSlack = 30 * time.Millisecond

// replayLog plays a RecordedTranscript on the replay's clock as the driver's
// transcript.Source.
type replayLog struct {
	log   *RecordedTranscript
	clock *virtualClock
	next  int // the first event not returned yet
	// upTo is a time the log is read up to before the clock reaches it:
	// the recorded time of the question being asked.
	upTo time.Duration
	// nextInput is the recorded time of the next input the replay has not
	// typed (replayTerm.nextInputAt); nil or false: none.
	nextInput func() (time.Duration, bool)
}

// horizon is the recorded time up to which reads count as done: logSlack
// ahead of the clock, but never up to recorded keys not typed yet, which
// the live driver typed before that read (a denial's "aborted" written
// 22 ms after the Esc, read before the replay asked, was a call run
// without asking); and the time of the question being asked.
func (l *replayLog) horizon() time.Duration { return l.horizonAt(l.clock.now()) }

// horizonAt is horizon with the clock at now.
func (l *replayLog) horizonAt(now time.Duration) time.Duration {
	ahead := now + logSlack
	if l.nextInput != nil {
		if at, ok := l.nextInput(); ok && at > now {
			ahead = min(ahead, at-1)
		}
	}
	return max(ahead, l.upTo)
}

// Poll returns the recorded events read by the horizon.
func (l *replayLog) Poll() ([]transcript.Event, error) {
	var out []transcript.Event
	for ; l.next < len(l.log.Events) && l.log.Events[l.next].At <= l.horizon(); l.next++ {
		out = append(out, l.log.Events[l.next].Event)
	}
	return out, nil
}

// nextRead is the recorded time of the next read of the log that found
// something the replay has not returned yet (the log itself, or events);
// false when none is left.
func (l *replayLog) nextRead(now time.Duration) (time.Duration, bool) {
	if l.log.Found >= 0 && l.log.Found > l.horizonAt(now) {
		return l.log.Found, true
	}
	if l.next < len(l.log.Events) {
		return l.log.Events[l.next].At, true
	}
	return 0, false
}

// nextLogRead is when the transcript is read next: logEvery from now,
// and in a replay of a recorded log sooner where a recorded read found
// something, so the replay reads it where the live driver did and not up
// to logEvery later (a turn's end read before the quit keys were typed).
func (d *driver) nextLogRead() time.Duration {
	next := d.now() + logEvery
	if l, ok := d.cfg.Transcript.(*replayLog); ok {
		if at, ok := l.nextRead(d.now()); ok {
			next = min(next, max(at, d.now(), 1))
		}
	}
	return next
}

// Path is a name for the recorded log once the live driver had found it.
func (l *replayLog) Path() string {
	if l.log.Found < 0 || l.log.Found > l.horizon() {
		return ""
	}
	return "(the transcript in the recording)"
}

// readLogAsAsked lets a replay read the recorded log up to the time the
// live driver asked question n: a replay settles on a question as soon as
// the recorded screen allows, a live driver a little later (its own work,
// a frame still being drawn), and what the log held by then is what the
// live question was made of. Without it the replay would wait for the
// call while the recording's answer goes by.
func (d *driver) readLogAsAsked(n int) {
	if l, ok := d.cfg.Transcript.(*replayLog); ok && n >= 1 && n <= len(l.log.Asked) {
		l.upTo = max(l.upTo, l.log.Asked[n-1])
	}
}

// noOutputRecorded is the tool_result of an approved command whose output
// a replay never saw: the program did not draw it (Claude Code folds it
// into "Ran 1 shell command", Copilot until Ctrl-O), and the recording
// holds no transcript (a person's recording) to read it from, as a live
// run does.
const noOutputRecorded = "(the program showed no output for this command, and the recording does not have it: a live run reads it from the program's transcript)"

// noOutputText is the tool_result of an approved command whose output the
// program did not show.
func (d *driver) noOutputText() string {
	if d.src.recording() != nil && d.cfg.Transcript == nil {
		return noOutputRecorded
	}
	return noOutput
}

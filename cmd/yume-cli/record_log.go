package main

import (
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/replay"
	"github.com/yume-cli/yume-cli/transcript"
)

// recordedLog tees the provider's session log into the recording, as
// markers (replay/sessionlog.go says how): a replay of the recording then
// reads the same calls, outputs and turn ends as the live run did, where
// the screen never showed them.
type recordedLog struct {
	transcript.Source
	rec    *recordingTerm
	redact func(string) string // nil with --record-raw
	found  bool
}

// recordLog starts recording l's session log into rec, with how the
// driver uses it and the prompt; l is changed to read through the tee.
func recordLog(rec *recordingTerm, l *tuiLaunch, prompt string, raw bool) {
	if l.sessionLog == nil {
		return
	}
	t := &recordedLog{Source: l.sessionLog, rec: rec, redact: emit.Redact}
	if raw {
		t.redact = nil
	} else {
		prompt = emit.Redact(prompt)
	}
	rec.Mark(replay.LogStartMarker(replay.LogConfig{AfterRun: l.logAfterRun, EndsTurns: l.logEndsTurns,
		UnaskedBy: l.unaskedBy, UnaskedAfter: l.unaskedAfter.Milliseconds(), Prompt: prompt}))
	l.sessionLog = t
}

// Poll reads the log and records what it returned at the time the read
// began: the driver acted on the screen as it was then.
func (t *recordedLog) Poll() ([]transcript.Event, error) {
	at := time.Since(t.rec.start)
	evs, err := t.Source.Poll()
	if !t.found && t.Source.Path() != "" {
		t.found = true
		t.rec.rec.Marker(at, replay.LogFoundMarker())
	}
	for _, e := range evs {
		t.rec.rec.Marker(at, replay.LogEventMarker(e, t.redact))
	}
	return evs, err
}

// QuestionWait passes on how long a question waits for its call in a log
// that is slow to read (driver/sessionlog.go asks the log for it); 0, the
// driver's own wait, where the log does not say.
func (t *recordedLog) QuestionWait() time.Duration {
	if s, ok := t.Source.(interface{ QuestionWait() time.Duration }); ok {
		return s.QuestionWait()
	}
	return 0
}

// ReadSince passes on whether a log read in the background has been read
// anew since t (driver/sessionlog.go); a log read as asked always has.
func (t *recordedLog) ReadSince(at time.Time) bool {
	if s, ok := t.Source.(interface{ ReadSince(time.Time) bool }); ok {
		return s.ReadSince(at)
	}
	return false
}

package run

import (
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/replay"
	"github.com/yume-cli/yume-cli/transcript"
)

// recordedTranscript tees the provider's transcript into the recording, as
// markers (replay/transcript.go says how): a replay of the recording then
// reads the same calls, outputs and turn ends as the live run did, where
// the screen never showed them.
type recordedTranscript struct {
	transcript.Source
	rec    *recordingTerm
	redact func(string) string // nil with --record-raw
	found  bool
}

// recordTranscript starts recording l's transcript into rec, with how the
// driver uses it and the prompt; l is changed to read through the tee.
func recordTranscript(rec *recordingTerm, l *tuiLaunch, prompt string, raw bool) {
	if l.transcript == nil {
		return
	}
	t := &recordedTranscript{Source: l.transcript, rec: rec, redact: emit.Redact}
	if raw {
		t.redact = nil
	} else {
		prompt = emit.Redact(prompt)
	}
	rec.Mark(replay.LogStartMarker(replay.LogConfig{AfterRun: l.logAfterRun, EndsTurns: l.logEndsTurns,
		UnaskedBy: l.unaskedBy, UnaskedAfter: l.unaskedAfter.Milliseconds(), Prompt: prompt}))
	l.transcript = t
}

// Poll reads the log and records what it returned at the time the read
// began: the driver acted on the screen as it was then.
func (t *recordedTranscript) Poll() ([]transcript.Event, error) {
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

// Unwrap is the log under the recording: the driver asks it how long a
// question waits for it and whether it was read anew (transcript.As).
func (t *recordedTranscript) Unwrap() transcript.Source { return t.Source }

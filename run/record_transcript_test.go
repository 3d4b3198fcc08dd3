package run

import (
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// backgroundSource is a transcript read in the background: it bounds a
// question's wait and says when it has been read anew.
type backgroundSource struct{ since time.Time }

func (backgroundSource) Poll() ([]transcript.Event, error) { return nil, nil }
func (backgroundSource) Path() string                      { return "server" }
func (backgroundSource) QuestionWait() time.Duration       { return 7 * time.Second }
func (b backgroundSource) ReadSince(t time.Time) bool      { return !b.since.Before(t) }

// plainSource is a file read as asked.
type plainSource struct{}

func (plainSource) Poll() ([]transcript.Event, error) { return nil, nil }
func (plainSource) Path() string                      { return "file" }

// TestRecordedTranscriptPassesOnTheWait: recording a run does not change
// how long its questions wait for the transcript: the driver finds what
// the transcript under the recording says (transcript.As, as
// driver/transcript.go asks).
func TestRecordedTranscriptPassesOnTheWait(t *testing.T) {
	type waiter interface{ QuestionWait() time.Duration }
	type reader interface{ ReadSince(time.Time) bool }
	now := time.Now()
	var bg transcript.Source = &recordedTranscript{Source: backgroundSource{since: now}}
	w, okW := transcript.As[waiter](bg)
	r, okR := transcript.As[reader](bg)
	if !okW || !okR || w.QuestionWait() != 7*time.Second || !r.ReadSince(now) || r.ReadSince(now.Add(time.Second)) {
		t.Errorf("background log through the recording: found %v %v", okW, okR)
	}
	var file transcript.Source = &recordedTranscript{Source: plainSource{}}
	_, okW = transcript.As[waiter](file)
	_, okR = transcript.As[reader](file)
	if okW || okR {
		t.Errorf("file log through the recording: found QuestionWait %v, ReadSince %v; want neither", okW, okR)
	}
}

package main

import (
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// backgroundSource is a session log read in the background: it bounds a
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

// TestRecordedLogPassesOnTheWait: recording a run does not change how long
// its questions wait for the log (driver/sessionlog.go asks the log).
func TestRecordedLogPassesOnTheWait(t *testing.T) {
	now := time.Now()
	bg := &recordedLog{Source: backgroundSource{since: now}}
	if bg.QuestionWait() != 7*time.Second || !bg.ReadSince(now) || bg.ReadSince(now.Add(time.Second)) {
		t.Errorf("background log through the recording: QuestionWait %v, ReadSince(read) %v, ReadSince(later) %v",
			bg.QuestionWait(), bg.ReadSince(now), bg.ReadSince(now.Add(time.Second)))
	}
	file := &recordedLog{Source: plainSource{}}
	if file.QuestionWait() != 0 || file.ReadSince(time.Time{}) {
		t.Errorf("file log through the recording: QuestionWait %v, ReadSince %v; want 0, false", file.QuestionWait(), file.ReadSince(time.Time{}))
	}
}

package structured

import (
	"io"
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// closeTranscript stops the agent's transcript from being read (a read in
// flight, a subprocess for opencode's CLI, is killed and waited for).
func (s *acpSession) closeTranscript() {
	s.mu.Lock()
	src := s.transcript
	s.mu.Unlock()
	if c, ok := src.(io.Closer); ok {
		_ = c.Close() // Best effort: the run's events are all out.
	}
}

// transcriptWait bounds the wait for a call's output to reach the transcript,
// which the agent writes once the call finished.
const transcriptWait = 2 * time.Second

// transcriptOutput looks calls' outputs up in src, waiting up to transcriptWait
// for one that is not there yet.
func transcriptOutput(src transcript.Source) func(id string) (string, bool) {
	outputs := map[string]string{}
	return func(id string) (string, bool) {
		for deadline := time.Now().Add(transcriptWait); ; {
			evs, _ := src.Poll() // Best effort: no transcript, no output.
			for _, e := range evs {
				if e.Kind == transcript.ToolResult {
					outputs[e.ID] = e.Output
				}
			}
			if out, ok := outputs[id]; ok || time.Now().After(deadline) {
				return out, ok
			}
			time.Sleep(50 * time.Millisecond) // Polling: the transcript gives no event to wait on.
		}
	}
}

package structured

import (
	"io"
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// closeRecord stops the agent's record from being read (a read in
// flight, a subprocess for opencode's CLI, is killed and waited for).
func (s *acpSession) closeRecord() {
	s.mu.Lock()
	rec := s.record
	s.mu.Unlock()
	if c, ok := rec.(io.Closer); ok {
		_ = c.Close() // Best effort: the run's events are all out.
	}
}

// recordWait bounds the wait for a call's output to reach the record,
// which the agent writes once the call finished.
const recordWait = 2 * time.Second

// recordedOutput looks calls' outputs up in rec, waiting up to recordWait
// for one that is not there yet.
func recordedOutput(rec transcript.Source) func(id string) (string, bool) {
	outputs := map[string]string{}
	return func(id string) (string, bool) {
		for deadline := time.Now().Add(recordWait); ; {
			evs, _ := rec.Poll() // Best effort: no record, no output.
			for _, e := range evs {
				if e.Kind == transcript.ToolResult {
					outputs[e.ID] = e.Output
				}
			}
			if out, ok := outputs[id]; ok || time.Now().After(deadline) {
				return out, ok
			}
			time.Sleep(50 * time.Millisecond) // Polling: the record gives no event to wait on.
		}
	}
}

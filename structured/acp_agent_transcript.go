package structured

import (
	"io"

	"github.com/yume-cli/yume-cli/transcript"
)

// closeTranscript stops the agent's transcript from being read (a read in
// flight, a subprocess for opencode's CLI, is killed and waited for), and
// the look for outputs still missing from it with it.
func (s *acpSession) closeTranscript() {
	s.mu.Lock()
	src := s.transcript
	if s.pollStop != nil {
		close(s.pollStop)
		s.pollStop = nil
	}
	s.mu.Unlock()
	if c, ok := src.(io.Closer); ok {
		_ = c.Close() // Best effort: the run's events are all out.
	}
}

// transcriptOutput looks calls' outputs up in src as it stands (no wait).
func transcriptOutput(src transcript.Source) func(id string) (string, bool) {
	outputs := map[string]string{}
	return func(id string) (string, bool) {
		if out, ok := outputs[id]; ok {
			return out, true
		}
		evs, _ := src.Poll() // Best effort: no transcript, no output.
		for _, e := range evs {
			if e.Kind == transcript.ToolResult {
				outputs[e.ID] = e.Output
			}
		}
		out, ok := outputs[id]
		return out, ok
	}
}

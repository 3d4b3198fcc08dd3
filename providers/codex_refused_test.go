package providers

import "testing"

// TestCodexRefused: Codex's transcript of a call it did not run because it
// was denied is a refusal (so a denied call is not taken for one that
// ran); a command it ran and stopped, or any other output, is not.
func TestCodexRefused(t *testing.T) {
	for _, c := range []struct {
		output  string
		refused bool
	}{
		{`"Wall time: 0.2 seconds\naborted by user"`, true}, // 0.171, Esc at the question
		{`"aborted by user"`, true},
		{`"exec command rejected by user"`, true}, // No at the question
		{`"Wall time: 3.2 seconds\naborted by user after 3.2s"`, false},
		{`"Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOutput:\naborted by user\n"`, false}, // a command that printed it
		{`"Process exited with code 1\nOutput:\nrm: cannot remove 'x': Permission denied\n"`, false},
	} {
		evs := parseCodexTranscript([]byte(`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":` + c.output + `}}`))
		if len(evs) != 1 || evs[0].Refused != c.refused {
			t.Errorf("output %s: events %+v, want one result, refused %v", c.output, evs, c.refused)
		}
	}
}

package providers

import "testing"

// TestCodexRefused: a denied call's record says it did not run; a call
// that ran and printed those words did run.
func TestCodexRefused(t *testing.T) {
	for line, refused := range map[string]bool{
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Wall time: 1.6 seconds\naborted by user"}}`:                                                                              true,
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"rejected by user"}}`:                                                                                                     true,
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\naborted by user\n"}}`: false,
	} {
		evs := parseCodexRecord([]byte(line))
		if len(evs) != 1 || evs[0].Refused != refused {
			t.Errorf("%s: events %+v, want Refused %v", line, evs, refused)
		}
	}
}

package providers

import (
	"testing"

	"github.com/yume-cli/yume-cli/transcript"
)

// TestTranscriptModelErrors: each CLI's transcript of a failed model request (as
// claude 2.1.332, codex 0.169.0 and copilot 1.0.102 wrote it against the
// fake model) is a ModelError event with the CLI's words, not an answer.
func TestTranscriptModelErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		parse transcript.Parser
		line  string
		want  []transcript.Event
	}{
		{"claude api error", parseClaudeTranscript,
			`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Please run /login · API Error: 401 fake error 401"}]},"error":"authentication_failed","isApiErrorMessage":true,"apiErrorStatus":401}`,
			[]transcript.Event{{Kind: transcript.ModelError, Text: "Please run /login · API Error: 401 fake error 401"}}},
		{"claude answer", parseClaudeTranscript,
			`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"The API returned 401 earlier."}]}}`,
			[]transcript.Event{{Kind: transcript.Text, Text: "The API returned 401 earlier."}}},
		{"codex failed turn", parseCodexTranscript,
			`{"type":"event_msg","payload":{"type":"task_complete","last_agent_message":null,"error":{"message":"exceeded retry limit, last status: 429 Too Many Requests","codex_error_info":{"response_too_many_failed_attempts":{"http_status_code":429}}}}}`,
			[]transcript.Event{{Kind: transcript.ModelError, Text: "exceeded retry limit, last status: 429 Too Many Requests"}, {Kind: transcript.TurnEnd}}},
		{"codex finished turn", parseCodexTranscript,
			`{"type":"event_msg","payload":{"type":"task_complete","last_agent_message":"done"}}`,
			[]transcript.Event{{Kind: transcript.TurnEnd}}},
		{"copilot session error", newCopilotParser(),
			`{"type":"session.error","data":{"errorType":"rate_limit","message":"Failed to get response from the AI model; retried 5 times (total retry wait time: 53.55 seconds) Last error: 429 fake error 429","statusCode":429}}`,
			[]transcript.Event{{Kind: transcript.ModelError, Text: "Failed to get response from the AI model; retried 5 times (total retry wait time: 53.55 seconds) Last error: 429 fake error 429"}}},
	} {
		got := c.parse([]byte(c.line))
		if len(got) != len(c.want) {
			t.Errorf("%s: events %+v, want %+v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i].Kind != c.want[i].Kind || got[i].Text != c.want[i].Text {
				t.Errorf("%s: event %d = %+v, want %+v", c.name, i, got[i], c.want[i])
			}
		}
	}
}

// TestOpenCodeExportModelError: Kilo 7.7.9's export of a turn the fake
// model refused (401) holds the error on the assistant step, its TUI
// showing nothing of it: a model error in its words, with the status.
func TestOpenCodeExportModelError(t *testing.T) {
	x := readExport(t, "kilo-export-401.json")
	var seen openCodeSeen
	var errs []string
	for _, e := range seen.events(x) {
		if e.Kind == transcript.ModelError {
			errs = append(errs, e.Text)
		}
	}
	if len(errs) != 1 || errs[0] != "APIError: fake error 401 (HTTP 401)" {
		t.Errorf("model errors %q, want the step's", errs)
	}
}

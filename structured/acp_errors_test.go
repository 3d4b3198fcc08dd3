package structured

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/emit"
)

// TestErrorOnlyAnswer: an ACP agent that answers with nothing but its
// failure to reach the model (Copilot CLI's "Info: …Retrying…Error: …")
// ends the turn with an error in its last words; an answer that talks
// about errors, or a turn with tool calls, is an answer.
func TestErrorOnlyAnswer(t *testing.T) {
	for _, tt := range []struct {
		text  string
		tools bool
		want  string
	}{
		{"Info: Request failed due to a transient API error. Retrying...Info: Request failed due to a transient API error. Retrying...Error: Authentication failed with provider at http://127.0.0.1:1/v1 (HTTP 401).",
			false, "Authentication failed with provider at http://127.0.0.1:1/v1 (HTTP 401)."},
		{"Error: Failed to get response from the AI model; retried 5 times (total retry wait time: 55.10 seconds) Last error: 429 fake error 429",
			false, "Failed to get response from the AI model; retried 5 times (total retry wait time: 55.10 seconds) Last error: 429 fake error 429"},
		{"The server answered 429 Too Many Requests: the rate limit was hit.", false, ""},
		{"Error: Authentication failed (HTTP 401).", true, ""},
		{"Info: all done.", false, ""},
	} {
		a := &acpTranslator{turn: newTurn(emit.NewWriter(discard{}, emit.Config{}), nil, "default")}
		a.last = tt.text
		if tt.tools {
			a.tools.use("t1", toolCall{"Bash", map[string]any{"command": "ls"}})
		}
		if got := a.errorOnlyAnswer(); got != tt.want {
			t.Errorf("errorOnlyAnswer(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestACPStatusLine: an agent's retry said as text (Copilot over ACP:
// "Info: Request failed due to a transient API error. Retrying...")
// reaches the GUI at once as a system error Yume shows, once; its answer
// text is not read as an error.
func TestACPStatusLine(t *testing.T) {
	var out strings.Builder
	a := &acpTranslator{turn: newTurn(emit.NewWriter(&out, emit.Config{}), prov("copilot"), "default")}
	chunk := func(text string) {
		b, _ := json.Marshal(map[string]any{"update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}}})
		if err := a.update(b); err != nil {
			t.Fatal(err)
		}
	}
	chunk("Info: Request failed due to a transient API error. Retrying...")
	chunk("Info: Request failed due to a transient API error. Retrying...")
	chunk("I will retry the failed test. Retrying...")
	if n := strings.Count(out.String(), `"subtype":"error"`); n != 1 || !strings.Contains(out.String(), "copilot retries: Request failed due to a transient API error") {
		t.Errorf("%d system errors:\n%s", n, out.String())
	}
}

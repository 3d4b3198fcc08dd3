package providers

import (
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/transcript"
)

// TestGeminiTranscript reads a chat log as Gemini 0.61 writes it: the header,
// a user message, a model message written twice (again with its call and
// result), and a resumed turn's user message.
func TestGeminiTranscript(t *testing.T) {
	lines := []string{
		`{"sessionId":"5f0c","projectHash":"x","startTime":"t","messages":[]}`,
		`{"id":"u1","timestamp":"t","type":"user","content":[{"text":"run it"}]}`,
		`{"id":"g1","timestamp":"t","type":"gemini","content":"Running.","toolCalls":[]}`,
		`{"id":"g1","timestamp":"t","type":"gemini","content":"Running.","toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"ls"},"status":"success","result":[{"functionResponse":{"response":{"output":"a.txt"}}}]}]}`,
		`{"id":"u2","timestamp":"t","type":"user","content":[{"text":"again"}]}`,
		`{"id":"u2","timestamp":"t","type":"user","content":[{"text":"again"}]}`,
	}
	parse := newGeminiParser()
	var kinds, prompts []string
	for _, l := range lines {
		for _, e := range parse([]byte(l)) {
			kinds = append(kinds, e.Kind.String())
			if e.Kind == transcript.Prompt {
				prompts = append(prompts, e.Text)
			}
			if e.Kind == transcript.ToolCall && e.Input["command"] != "ls" {
				t.Errorf("call input %v", e.Input)
			}
		}
	}
	want := "session prompt text tool_call tool_result prompt"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	if strings.Join(prompts, "|") != "run it|again" {
		t.Errorf("prompts %q, want the user messages' text", prompts)
	}
}

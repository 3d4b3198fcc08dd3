package providers

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/transcript"
)

// TestQwenTranscript reads a transcript Qwen Code 0.24.4 wrote in its TUI
// (yolo mode, one shell call): the prompt, the text, the call in Claude's
// words, and the call's whole output from its display, not the
// "Command: … Output: …" wrapping of the model's copy.
func TestQwenTranscript(t *testing.T) {
	b, err := os.ReadFile("testdata/qwen-chat.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	parse := newQwenParser()
	var got []transcript.Event
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		got = append(got, parse(line)...)
	}
	var kinds []string
	for _, e := range got {
		kinds = append(kinds, e.Kind.String())
	}
	if want := "session prompt text tool_call tool_result text"; strings.Join(kinds, " ") != want {
		t.Fatalf("events %v, want %s", kinds, want)
	}
	if got[0].Session != "1ab11b3e-b159-48eb-b050-e8de5fe69e89" || got[1].Text != "make the file" {
		t.Errorf("session %q, prompt %q", got[0].Session, got[1].Text)
	}
	call, res := got[3], got[4]
	if call.Name != "Bash" || call.ID != "call_fake_2" || call.Input["command"] != `printf 'alpha\nbeta\n' > made.txt && echo wrote made.txt && seq 1 40` {
		t.Errorf("call %+v", call)
	}
	if res.ID != call.ID || res.IsError || !strings.HasPrefix(res.Output, "wrote made.txt\n1\n") || !strings.HasSuffix(res.Output, "\n39\n40") {
		t.Errorf("result %+v: want the whole output, unwrapped", res)
	}
	if got[5].Text != "All done." {
		t.Errorf("answer %q", got[5].Text)
	}
}

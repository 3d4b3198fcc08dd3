package providers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// Transcripts Qwen Code 0.24.4 wrote headless (yolo, then default approval
// mode) while its memory extraction side request, answered by the fake
// model, ran `cat secret.txt`: it ran in yolo; in default mode Qwen's
// own rule denied it.
func TestQwenSideCalls(t *testing.T) {
	for _, c := range []struct {
		file, session string
		ran           bool
	}{
		{"qwen-side-ran.jsonl", "63d94feb-09f2-4afa-94fa-5a4ceb3eedfe", true},
		{"qwen-side-denied.jsonl", "e02bd858-8533-4871-a129-10af940abf43", false},
	} {
		home := t.TempDir()
		dir := filepath.Join(home, ".qwen", "projects", "-ws", "chats")
		b, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, c.session+".jsonl"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		l := Launch{Session: c.session, Getenv: func(k string) string { return map[string]string{"HOME": home}[k] }}
		qwen, _ := Lookup("qwen")
		gemini, _ := Lookup("gemini")
		got := SideCalls(qwen, l)
		if len(got) != 2 || got[0].Kind != transcript.ToolCall || got[1].Kind != transcript.ToolResult || got[0].ID != got[1].ID {
			t.Fatalf("%s: events %+v: want one side call and its result", c.file, got)
		}
		call, res := got[0], got[1]
		by, _ := call.Input["approved_by"].(string)
		if call.Name != "Bash" || call.Input["command"] != "cat secret.txt" || call.ID != "qwen_side_side_call_1" {
			t.Errorf("%s: call %+v", c.file, call)
		}
		if c.ran && (!strings.Contains(by, "managed-auto-memory-extractor") || !strings.Contains(by, "without asking") || res.IsError) {
			t.Errorf("%s: call %+v, result %+v: want it run without asking", c.file, call, res)
		}
		if !c.ran && (by != "" || !res.IsError || !strings.Contains(res.Output, "read-only only")) {
			t.Errorf("%s: call %+v, result %+v: want Qwen's denial", c.file, call, res)
		}
		if other := SideCalls(gemini, l); other != nil {
			t.Errorf("gemini side calls %+v", other)
		}
		// A resumed run reads calls from its own start on: the last
		// entry of both transcripts is stamped 19:25:55.3, the call earlier.
		for _, at := range []struct {
			started string
			want    int
		}{{"2026-11-25T19:25:40Z", 2}, {"2026-11-25T19:25:56Z", 0}} {
			l.Started, _ = time.Parse(time.RFC3339, at.started)
			if got := SideCalls(qwen, l); len(got) != at.want {
				t.Errorf("%s: started %s: %d events, want %d", c.file, at.started, len(got), at.want)
			}
		}
	}
}

// The TUI's reader holds a side call until the conversation's next
// entry: between turns nothing is reported, so the next turn reports it.
func TestQwenTranscriptHoldsSideCalls(t *testing.T) {
	b, err := os.ReadFile("testdata/qwen-side-ran.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	parse := newQwenParser()
	var kinds []string
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		for _, e := range parse(line) {
			kinds = append(kinds, e.Kind.String())
		}
	}
	if want := "session prompt text"; strings.Join(kinds, " ") != want {
		t.Fatalf("events %v, want %s (the side call held)", kinds, want)
	}
	var next []string
	for _, e := range parse([]byte(`{"sessionId":"63d94feb-09f2-4afa-94fa-5a4ceb3eedfe","type":"user","provenance":"real_user","message":{"parts":[{"text":"next"}]}}`)) {
		next = append(next, e.Kind.String())
	}
	if want := "tool_call tool_result prompt"; strings.Join(next, " ") != want {
		t.Errorf("the next turn's events %v, want %s", next, want)
	}
}

package providers

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// TestTranscriptUsage: what each CLI's transcript holds of a turn of two model
// requests (a shell call, then the answer) against the fake model, which
// reported 101 input, 1001 cache-read and 201 cache-write tokens and 11
// output tokens for the first request, 102/1002/202/12 for the second.
// Each transcript's tokens, told once per request (however often the transcript
// writes them), add up to the turn's in Claude's split. Claude Code's
// API reports the cache writes; the OpenAI and Gemini APIs count them as
// plain input, and count the cached tokens into their input, which the
// parsers take out. (Written by claude 2.1.332, codex 0.171.0, gemini
// 0.61.0, copilot 1.0.102, qwen 0.24.4, opencode 1.18.34, kilo 7.7.9.)
func TestTranscriptUsage(t *testing.T) {
	openAISplit := transcript.Usage{Input: 101 + 201 + 102 + 202, Output: 23, CacheRead: 2003}
	for _, c := range []struct {
		file     string
		parse    func() transcript.Parser
		requests int
		want     transcript.Usage
		textHas  bool // its texts carry their request's tokens
	}{
		{"claude.jsonl", func() transcript.Parser { return parseClaudeTranscript }, 2,
			transcript.Usage{Input: 203, Output: 23, CacheRead: 2003, CacheWrite: 403}, true},
		{"codex.jsonl", func() transcript.Parser { return parseCodexTranscript }, 2, openAISplit, false},
		{"gemini.jsonl", newGeminiParser, 2, openAISplit, true},
		{"copilot.jsonl", newCopilotParser, 2, openAISplit, false},
		{"qwen.jsonl", newQwenParser, 2, openAISplit, true},
	} {
		t.Run(c.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "usage", c.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			parse := c.parse()
			var tally transcript.Tally
			ids := map[string]bool{}
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 4<<20)
			texts := 0
			for sc.Scan() {
				for _, e := range parse(bytes.Clone(sc.Bytes())) {
					if e.Kind == transcript.Text {
						texts++
						if (e.Usage != nil) != c.textHas {
							t.Errorf("text %q with usage %+v", e.Text, e.Usage)
						}
					}
					if e.Kind != transcript.Tokens {
						continue
					}
					if e.Usage == nil || e.ID == "" || e.At.IsZero() {
						t.Errorf("tokens event without its usage, request or time: %+v", e)
					}
					ids[e.ID] = true
					tally.Add(e)
				}
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			if texts == 0 {
				t.Error("no text in the transcript")
			}
			if len(ids) != c.requests {
				t.Errorf("%d requests, want %d: %v", len(ids), c.requests, ids)
			}
			if got, ok := tally.Sum(); !ok || got != c.want {
				t.Errorf("usage %+v (%v), want %+v", got, ok, c.want)
			}
			// A resumed session's transcript holds the earlier runs: they
			// do not count for a run started after them.
			later := transcript.Tally{Since: time.Now()}
			f.Seek(0, 0)
			sc = bufio.NewScanner(f)
			sc.Buffer(nil, 4<<20)
			parse = c.parse()
			for sc.Scan() {
				for _, e := range parse(bytes.Clone(sc.Bytes())) {
					later.Add(e)
				}
			}
			if u, ok := later.Sum(); ok {
				t.Errorf("a later run counts the earlier run's tokens: %+v", u)
			}
		})
	}
}

// TestOpenCodeExportUsage: opencode's and Kilo's export of the same turn
// has each step's tokens (input without the cache's) on its message,
// reported once, when the step completed.
func TestOpenCodeExportUsage(t *testing.T) {
	for _, name := range []string{"opencode-export.json", "kilo-export.json"} {
		t.Run(name, func(t *testing.T) {
			x := readExport(t, filepath.Join("usage", name))
			var seen openCodeSeen
			var tally transcript.Tally
			n := 0
			for _, e := range seen.events(x) {
				if e.Kind == transcript.Tokens {
					n++
					tally.Add(e)
				}
			}
			want := transcript.Usage{Input: 606, Output: 23, CacheRead: 2003}
			if got, ok := tally.Sum(); n != 2 || !ok || got != want {
				t.Errorf("%d requests, usage %+v; want 2, %+v", n, got, want)
			}
			for _, e := range seen.events(x) {
				if e.Kind == transcript.Tokens {
					t.Errorf("read again: tokens %+v told twice", e)
				}
			}
		})
	}
}

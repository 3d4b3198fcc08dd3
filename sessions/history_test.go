package sessions

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestReadHistoryShapes(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, body string
		want       []string // role:text of each entry
		err        string
	}{
		{"history array", `[{"role":"user","text":"hi"},{"role":"assistant","text":"hello"}]`, []string{"user:hi", "assistant:hello"}, ""},
		{"session file", `{"id":"s","provider":"gemini","history":[{"role":"user","text":"q"}]}`, []string{"user:q"}, ""},
		{"claude messages", `[{"role":"user","content":"run ls"},{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a.txt"}]}]}]`,
			[]string{"user:run ls", "assistant:ok", "tool_use:", "tool_result:a.txt"}, ""},
		{"not json", `hello`, nil, "not a JSON array or object"},
		{"no role", `[{"text":"x"}]`, nil, `entry 1: no "role"`},
		{"bad content", `[{"role":"user","content":42}]`, nil, "neither text nor a list"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			if err := os.WriteFile(p, []byte(c.body), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := ReadHistory(p)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one saying %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var have []string
			for _, e := range got {
				have = append(have, e.Role+":"+e.Text)
			}
			if strings.Join(have, "|") != strings.Join(c.want, "|") {
				t.Errorf("entries %q, want %q", have, c.want)
			}
		})
	}
	if _, err := ReadHistory(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "--history-file") {
		t.Errorf("a missing file: %v", err)
	}
}

// TestContextBounded: generated histories of any length and shape come
// out within the budget, newest entries whole and in order, the cut said.
func TestContextBounded(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	words := []string{"ls", "the", "build", "failed", "ok", "日本語", "🙂", "\"q\"", "$HOME", "\\n", "line\nbreak"}
	for i := 0; i < 300; i++ {
		n := rng.IntN(200)
		var hist []Entry
		for j := 0; j < n; j++ {
			var sb strings.Builder
			for k := rng.IntN(1 + rng.IntN(2000)); k >= 0; k-- {
				sb.WriteString(words[rng.IntN(len(words))] + " ")
			}
			role := []string{"user", "assistant", "tool_use", "tool_result"}[rng.IntN(4)]
			e := Entry{Role: role, Text: fmt.Sprintf("#%d %s", j, sb.String())}
			if role == "tool_use" {
				e.Tool, e.Input, e.Text = "Bash", map[string]any{"command": fmt.Sprintf("#%d %s", j, sb.String())}, ""
			}
			hist = append(hist, e)
		}
		budget := 500 + rng.IntN(20000)
		out := Context(hist, budget)
		const frame = 200 // the header, footer and cut note
		if len(out) > budget+frame {
			t.Fatalf("seed %d case %d: %d bytes for a budget of %d", seed, i, len(out), budget)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("seed %d case %d: invalid UTF-8", seed, i)
		}
		if n == 0 {
			continue
		}
		last := contextLine(hist[n-1])
		if len(last)+1 <= budget && !strings.HasSuffix(out, last+"\n[End of the earlier conversation.]") {
			t.Fatalf("seed %d case %d: the newest entry is not kept whole at the end", seed, i)
		}
		kept := strings.Count(out, "\n") - 1
		if !strings.Contains(out, "earlier entries left out") && kept < n {
			t.Fatalf("seed %d case %d: entries dropped without a note", seed, i)
		}
	}
}

func TestWithHistory(t *testing.T) {
	if got := WithHistory(nil, "hi", 100); got != "hi" {
		t.Errorf("no history: %q", got)
	}
	got := WithHistory([]Entry{{Role: "user", Text: "remember pineapple"}, {Role: "assistant", Text: "noted"}}, "which word?", 1000)
	for _, want := range []string{"User: remember pineapple", "Assistant: noted", "\n\nwhich word?"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}

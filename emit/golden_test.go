package emit

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// idPatterns replace the random parts of a stream with stable tokens.
var idPatterns = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`), "<uuid>"},
	{regexp.MustCompile(`msg_[0-9A-Za-z]{24}`), "msg_<id>"},
	{regexp.MustCompile(`req_[0-9A-Za-z]{24}`), "req_<id>"},
}

func normalise(out []byte) []byte {
	for _, p := range idPatterns {
		out = p.re.ReplaceAll(out, []byte(p.repl))
	}
	return out
}

// goldenSession is a two-turn session that touches every event shape.
func goldenSession(w *Writer, clock *fakeClock) {
	_ = w.Init("default", []string{"Bash"})
	w.MessageUsage(&Usage{InputTokens: 3, OutputTokens: 1, CacheCreationInputTokens: 40, CacheReadInputTokens: 500})
	_ = w.Text("I'll run the tests.")
	_ = w.ToolUse("toolu_01", "Bash", map[string]string{"command": "npm test"})
	w.MessageUsage(nil)
	_, _ = w.PermissionRequest("toolu_01", "Bash", map[string]string{"command": "npm test"})
	_ = w.Notice("auto-approved: npm test")
	_ = w.ToolResult("toolu_01", "ok <3 & \"done\"\n", false)
	_ = w.ToolUse("toolu_02", "Bash", map[string]string{"command": "git push"})
	_ = w.Deny("toolu_02", "Bash", map[string]string{"command": "git push"}, "")
	_ = w.Usage(10, 20)
	clock.Advance(1234 * time.Millisecond)
	_ = w.Result(Result{Text: "Tests pass.", Usage: &Usage{InputTokens: 10, OutputTokens: 20, CacheReadInputTokens: 500}, CostUSD: Cost(0.0125)})
	w.NewTurn()
	_ = w.SessionChanged("sess-golden-2")
	_ = w.RateLimit("API Error: 429 rate_limit_error · Retrying in 2s · attempt 1/10")
	_ = w.Interrupt()
	clock.Advance(5 * time.Millisecond)
	_ = w.Fail(errors.New("interrupted by the user"))
}

func TestGolden(t *testing.T) {
	for _, p := range protocols {
		t.Run(string(p), func(t *testing.T) {
			w, buf, clock := newTestWriter(p)
			goldenSession(w, clock)
			mustValidate(t, buf.Bytes())
			got := normalise(buf.Bytes())
			path := filepath.Join("testdata", string(p)+".golden.jsonl")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./emit -run TestGolden -update to create it)", err)
			}
			if string(got) != string(want) {
				t.Errorf("stream differs from %s (rerun with -update if the change is intended)\ngot:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}
}

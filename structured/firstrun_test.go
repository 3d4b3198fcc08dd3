package structured

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
)

// TestFirstRunFindings: a provider that ends the turn with an error before
// saying a word (it exited at once, as a CLI not logged in does) gets the
// first-run findings in its error result, where its own words leave room
// for them (it said nothing, or spoke of a login; not when it rejected a
// flag); one that worked first does not.
func TestFirstRunFindings(t *testing.T) {
	const note = "Before gemini can work in /ws: no credentials found; to log in, set GEMINI_API_KEY."
	silent := "exit:2:" // exits 2 with no output
	cases := []struct {
		name, mode, scenario string
		hook                 string // what the hook says
		want                 bool   // the result carries it
	}{
		{"json: exits at once", "json", silent, note, true},
		{"acp: exits at once", "acp", silent, note, true},
		{"json: exits at once, not logged in", "json", "exit:41:Please set an Auth method or GEMINI_API_KEY", note, true},
		{"acp: exits at once, not logged in", "acp", "exit:41:Please set an Auth method or GEMINI_API_KEY", note, true},
		{"json: exits at once, rejects a flag", "json", "exit:2:Unknown arguments: acp", note, false},
		{"json: exits at once, nothing found", "json", silent, "", false},
		{"json: crash after text", "json", "crash", note, false},
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var asked []string
			hook := func(screen string) string { asked = append(asked, screen); return c.hook }
			tap := &lineTap{}
			w := emit.NewWriter(tap, emit.Config{SessionID: "sess-fake"})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			home := t.TempDir()
			err := Run(ctx, Options{Provider: prov("gemini"), Mode: c.mode, Bin: exe, Cwd: t.TempDir(), Prompt: "do it",
				Env: []string{"YUME_FAKE_CLI=" + c.scenario, "HOME=" + home}, FirstRun: hook}, w)
			if err != nil {
				t.Fatal(err)
			}
			out := tap.bytes()
			for _, e := range emittest.Validate(out) {
				t.Errorf("conformance: %v", e)
			}
			assertNoLeftovers(t, home)
			var res struct {
				IsError bool     `json:"is_error"`
				Result  string   `json:"result"`
				Errors  []string `json:"errors"`
			}
			for _, line := range strings.Split(string(out), "\n") {
				if strings.Contains(line, `"type":"result"`) {
					if err := json.Unmarshal([]byte(line), &res); err != nil {
						t.Fatal(err)
					}
				}
			}
			if !res.IsError {
				t.Fatalf("result %+v is not an error:\n%s", res, out)
			}
			carries := strings.Contains(res.Result, note) && strings.Contains(res.Errors[len(res.Errors)-1], note)
			if carries != c.want {
				t.Errorf("result %+v carries the findings: %v, want %v", res, carries, c.want)
			}
			if c.want && (!strings.HasPrefix(res.Result, "gemini exited with status ") || !strings.HasSuffix(res.Result, note)) {
				t.Errorf("result %q: want how the provider ended, then the findings", res.Result)
			}
			if c.want && !regexp.MustCompile(`"subtype":"error","message":"[^"]*`+regexp.QuoteMeta(note)).Match(out) {
				t.Errorf("no system error says the findings:\n%s", out)
			}
			if rest, ok := strings.CutPrefix(c.scenario, "exit:"); ok {
				if _, words, _ := strings.Cut(rest, ":"); !strings.Contains(res.Result, words) {
					t.Errorf("result %q does not quote the provider's words %q", res.Result, words)
				}
			}
			if c.want && (len(asked) != 1 || asked[0] != "") {
				t.Errorf("the hook was asked %q, want once with no screen", asked)
			}
		})
	}
}

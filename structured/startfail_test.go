package structured

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
)

// TestStartFailsInItsWords: a provider that exits before it says a word,
// in a JSON or ACP mode, ends the turn with an error result and a system
// error that name its exit status, quote its last lines on stderr (its
// usage on stdout too: not its protocol's JSON; yume-cli's own log lines
// never) and say what to do.
func TestStartFailsInItsWords(t *testing.T) {
	cases := []struct {
		name, provider, mode, scenario string
		want, not                      []string
	}{
		{"json: an unknown option", "claude", "json", `exit:2:error: unknown option '--foo'`,
			[]string{"claude exited with status 2. Its last words on stderr:\n\n    error: unknown option '--foo'\n", "rejected its command line", "`yume-cli doctor`"}, []string{"yume-cli:"}},
		{"acp: an unknown option", "qwen", "acp", `exit:2:Unknown arguments: foo\nUsage: qwen [options]`,
			[]string{"qwen exited with status 2", "    Unknown arguments: foo\n    Usage: qwen [options]\n", "rejected its command line"}, []string{"ACP connection", "yume-cli:"}},
		{"json: its usage on stdout", "gemini", "json", `exit:1:out:Usage: gemini [options]\n  --foo  a flag`,
			[]string{"gemini exited with status 1. Its last words on stdout:", "Usage: gemini [options]", "rejected its command line"}, nil},
		{"json: a crash", "codex", "json", `exit:7:thread 'main' panicked at src/main.rs:1:1`,
			[]string{"codex exited with status 7", "thread 'main' panicked", "Run the same command in a terminal"}, []string{"rejected"}},
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tap := &lineTap{}
			w := emit.NewWriter(tap, emit.Config{SessionID: "sess-fake"})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			home := t.TempDir()
			err := Run(ctx, Options{Provider: prov(c.provider), Mode: c.mode, Bin: exe, Cwd: t.TempDir(), Prompt: "do it",
				PermissionMode: "auto", Verbose: true, Stderr: &strings.Builder{},
				Env: []string{"YUME_FAKE_CLI=" + c.scenario, "HOME=" + home}}, w)
			if err != nil && !errors.Is(err, emit.ErrTurnEnded) {
				t.Fatal(err)
			}
			out := tap.bytes()
			for _, e := range emittest.Validate(out) {
				t.Errorf("conformance: %v", e)
			}
			var result, sysErr string
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				var e struct {
					Type, Subtype, Message, Result string
					IsError                        bool `json:"is_error"`
				}
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatalf("not JSON: %q", line)
				}
				switch {
				case e.Type == "result" && e.IsError:
					result = e.Result
				case e.Type == "system" && e.Subtype == "error":
					sysErr += e.Message
				}
			}
			if sysErr != result {
				t.Errorf("the system error %q is not the result %q", sysErr, result)
			}
			for _, w := range c.want {
				if !strings.Contains(result, w) {
					t.Errorf("result %q\nwant it to say %q", result, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(result, n) {
					t.Errorf("result %q says %q", result, n)
				}
			}
		})
	}
}

package emit

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestWriterConformance runs every Writer method in both protocols and
// checks the stream against the contract.
func TestWriterConformance(t *testing.T) {
	for _, p := range protocols {
		t.Run(string(p), func(t *testing.T) {
			w, buf, clock := newTestWriter(p)
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(w.Init("interactive", []string{"Bash", "Read"}))
			must(w.Text("I'll run the tests."))
			must(w.Text(strings.Repeat("long text ", 12_000)))
			must(w.ToolUse("toolu_a", "Bash", map[string]string{"command": "npm test"}))
			req, err := w.PermissionRequest("toolu_a", "Bash", map[string]string{"command": "npm test"})
			must(err)
			if id, ok := w.ToolUseForRequest(req); !ok || id != "toolu_a" {
				t.Fatalf("ToolUseForRequest = %q, %v", id, ok)
			}
			must(w.Notice("auto-approved: npm test"))
			must(w.ToolResult("toolu_a", strings.Repeat("PASS\n", 30_000), false))
			must(w.ToolUse("toolu_b", "Bash", map[string]string{"command": "rm -rf /"}))
			must(w.Deny("toolu_b", "Bash", map[string]string{"command": "rm -rf /"}, "The user denied this."))
			must(w.Usage(120, 30))
			must(w.SessionChanged("sess-next"))
			clock.Advance(time.Second)
			must(w.Result(Result{Text: "done", Usage: &Usage{InputTokens: 120, OutputTokens: 30}}))

			w.NewTurn()
			must(w.Text("second turn"))
			must(w.Interrupt())
			must(w.Result(Result{IsError: true, Errors: []string{"interrupted by the user"}}))

			w.NewTurn()
			must(w.SystemError("provider crashed"))
			must(w.Fail(errors.New("exit status 2")))

			w.NewTurn()
			_ = Guard(w, func() error { panic("bug") })
			mustValidate(t, buf.Bytes())
		})
	}
}

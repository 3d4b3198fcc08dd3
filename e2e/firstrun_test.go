package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
)

// TestLiveFirstRun: a CLI never set up (no login, folder not trusted)
// shows a screen yume-cli cannot answer, or exits; either way the turn
// ends promptly with an error result that says what to do, never a stall.
func TestLiveFirstRun(t *testing.T) {
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			cliPath(t, provider)
			bare := func(sb *offline.Sandbox) {
				ents, _ := os.ReadDir(sb.Home)
				for _, e := range ents {
					if e.Name() != "tmp" {
						_ = os.RemoveAll(filepath.Join(sb.Home, e.Name()))
					}
				}
			}
			r := runYumeWith(t, provider, func(string) fakemodel.Script { return oneCommandScript(provider) },
				gui{answer: func(int) bool { return true }}, bare, "--mode", "pty", "--prompt", "make the file")
			res := r.final()
			if res == nil || res["is_error"] != true {
				t.Fatalf("result = %v, want an error", res)
			}
			if r.took > 60*time.Second {
				t.Errorf("took %v", r.took)
			}
			msg := strings.ToLower(res.str("result"))
			if !strings.Contains(msg, "run") && !strings.Contains(msg, "exited") {
				t.Errorf("the error does not say what happened or what to run: %q", res.str("result"))
			}
			if r.exit != 1 {
				t.Errorf("exit status %d, want 1", r.exit)
			}
			t.Logf("%s: %s", provider, res.str("result"))
		})
	}
}

package structured

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/permission"
)

// TestGuardAnswersForNobody: in default mode, a question nobody can
// answer (no control channel, or stdin ending while it waits) is
// answered by the guard: an ordinary call runs; a blocked one is denied
// with a tool_result naming its rule, a system error naming the command
// and the rule (what Yume shows), and a permission denial.
func TestGuardAnswersForNobody(t *testing.T) {
	sudo := permission.Danger{Rules: []string{"sudo"}, Reason: "runs a command as root (sudo)"}
	for _, c := range []struct {
		name, scenario  string
		closeWhileAsked bool
		blocked         bool
	}{
		{"no channel, ordinary", "claude-relay", false, false},
		{"no channel, sudo", "claude-relay:sudo make install", false, true},
		{"stdin ends while asked, ordinary", "claude-relay", true, false},
		{"stdin ends while asked, sudo", "claude-relay:sudo make install", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := guardRun(t, c.scenario, c.closeWhileAsked)
			raw := string(out)
			if asked := strings.Contains(raw, `"subtype":"can_use_tool"`); asked != c.closeWhileAsked {
				t.Errorf("asked the GUI: %v, want %v", asked, c.closeWhileAsked)
			}
			var result, sysErr string
			var denials []any
			for _, e := range events(t, out) {
				switch {
				case e["type"] == "user":
					blocks := e["message"].(map[string]any)["content"].([]any)
					result, _ = blocks[0].(map[string]any)["content"].(string)
				case e["type"] == "system" && e["subtype"] == "error":
					sysErr, _ = e["message"].(string)
				case e["type"] == "result":
					denials, _ = e["permission_denials"].([]any)
				}
			}
			if !c.blocked {
				if result != "built" || sysErr != "" || len(denials) != 0 {
					t.Errorf("ordinary call: result %q, system error %q, denials %v\n%s", result, sysErr, denials, raw)
				}
				if !strings.Contains(raw, permission.GuardApproved("make")) {
					t.Errorf("no notice that the guard approved it:\n%s", raw)
				}
				return
			}
			if result != permission.GuardBlocked(sudo) {
				t.Errorf("tool_result %q, want %q", result, permission.GuardBlocked(sudo))
			}
			if !strings.Contains(sysErr, "sudo make install") || !strings.Contains(sysErr, "rule sudo") {
				t.Errorf("system error %q does not name the command and the rule", sysErr)
			}
			if len(denials) != 1 {
				t.Errorf("permission_denials %v, want the blocked call", denials)
			}
		})
	}
}

// guardRun runs the fake Claude in default mode; closeWhileAsked gives it
// a control channel that ends as the permission request goes out.
func guardRun(t *testing.T, scenario string, closeWhileAsked bool) []byte {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tap := &lineTap{}
	var controls chan emit.Control
	if closeWhileAsked {
		controls = make(chan emit.Control)
		var once sync.Once
		tap.gui = func(m map[string]any) {
			if m["type"] == "control_request" {
				once.Do(func() { close(controls) })
			}
		}
	}
	var errBuf bytes.Buffer
	err = Run(ctx, Options{Provider: prov("claude"), Mode: "json", Bin: exe, Cwd: t.TempDir(), Prompt: "do it",
		Controls: controls, Stderr: &syncWriter{w: &errBuf}, Env: []string{"YUME_FAKE_CLI=" + scenario, "HOME=" + home}},
		emit.NewWriter(tap, emit.Config{SessionID: "sess-fake"}))
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, errBuf.String())
	}
	out := tap.bytes()
	for _, e := range emittest.Validate(out) {
		t.Errorf("conformance: %v", e)
	}
	return out
}

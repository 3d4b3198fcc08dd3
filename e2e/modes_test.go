package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLivePermissionModes runs one command in each CLI's TUI under
// yume-cli's auto and deny modes (default mode is what TestLiveGenerated
// answers by hand). auto: the GUI is never asked, the call is still
// reported with its exact command and whole output, and who let it run.
// deny: the CLI asks, yume-cli refuses, the command never runs.
func TestLivePermissionModes(t *testing.T) {
	live(t)
	for _, provider := range providers {
		t.Run(provider+"/auto", func(t *testing.T) {
			asked := gui{answer: func(int) bool {
				t.Error("the GUI was asked in auto mode")
				return true
			}}
			script := oneCommandScript(provider)
			if provider == "codex" {
				// Under its bypass there is no sandbox to leave: a model
				// asks for a plain run (asking to escalate is refused).
				script.Replies[0].ToolCalls[0].Args = map[string]string{"cmd": oneCommand}
			}
			r := runYume(t, provider, script, asked, "--mode", "pty", "--permission-mode", "auto", "--prompt", "make the file")
			if len(r.uses) != 1 || r.uses[0].Input["command"] != oneCommand {
				t.Fatalf("want one tool_use with the exact command, got %+v", r.uses)
			}
			res, ok := r.results[r.uses[0].ID]
			if !ok || res.IsError || !strings.Contains(res.Content, "wrote made.txt") || !strings.Contains(res.Content, "\n40") {
				t.Errorf("tool_result %+v (reported: %v): want the command's whole output", res, ok)
			}
			if by, _ := r.uses[0].Input["approved_by"].(string); by == "" && !strings.Contains(string(r.raw), "auto-approved") {
				t.Errorf("the call does not say who approved it: input %v", r.uses[0].Input)
			}
			if _, err := os.Stat(filepath.Join(r.sb.Workspace, "made.txt")); err != nil {
				t.Errorf("the approved command did not run: %v", err)
			}
			if f := r.final(); f == nil || f["is_error"] == true || count(r.texts(), "All done.") != 1 {
				t.Errorf("final %v, texts %q: want a success result and the answer once", f, r.texts())
			}
		})
		t.Run(provider+"/deny", func(t *testing.T) {
			asked := gui{answer: func(int) bool {
				t.Error("the GUI was asked in deny mode")
				return true
			}}
			r := runYume(t, provider, oneCommandScript(provider), asked, "--mode", "pty", "--permission-mode", "deny", "--prompt", "make the file")
			if len(r.uses) != 1 || r.uses[0].Input["command"] != oneCommand {
				t.Fatalf("want one tool_use with the exact command, got %+v", r.uses)
			}
			if res := r.results[r.uses[0].ID]; !res.IsError {
				t.Errorf("tool_result %+v: want the denial (is_error)", res)
			}
			if _, err := os.Stat(filepath.Join(r.sb.Workspace, "made.txt")); err == nil {
				t.Error("a denied command ran: made.txt exists")
			}
			f := r.final()
			if f == nil {
				t.Fatal("no result")
			}
			if d, _ := f["permission_denials"].([]any); len(d) != 1 {
				t.Errorf("permission_denials %v: want the one denied call", f["permission_denials"])
			}
		})
	}
}

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// driftCases are the cases `make drift` runs over each release of each
// CLI: what breaks first when a release changes its screens or defaults.
var driftCases = []struct {
	name string
	run  func(t *testing.T, provider string) (ok bool, note string)
}{
	{"approve", func(t *testing.T, p string) (bool, string) {
		r := runYume(t, p, oneCommandScript(p), gui{answer: func(int) bool { return true }}, "--mode", "pty", "--prompt", "make the file")
		if len(r.uses) != 1 || r.uses[0].Input["command"] != oneCommand {
			return false, fmt.Sprintf("%d tool_uses", len(r.uses))
		}
		res := r.results[r.uses[0].ID]
		last := "\n40"
		if want := tuiOutput[p]; want != nil {
			last = want[1] // opencode's and Kilo's TUI draw the first rows only
		}
		return !res.IsError && strings.Contains(res.Content, last) && count(r.texts(), "All done.") == 1, ""
	}},
	{"deny", func(t *testing.T, p string) (bool, string) {
		r := runYume(t, p, oneCommandScript(p), gui{answer: func(int) bool { return false }}, "--mode", "pty", "--prompt", "make the file")
		if len(r.uses) != 1 {
			return false, fmt.Sprintf("%d tool_uses", len(r.uses))
		}
		_, err := os.Stat(filepath.Join(r.sb.Workspace, "made.txt"))
		return r.results[r.uses[0].ID].IsError && err != nil && r.final() != nil, ""
	}},
	{"long command", func(t *testing.T, p string) (bool, string) {
		cmd := "printf '%s\\n' 'a-b' && echo " + strings.Repeat("wrap-me-at-any-column ", 14) + "&& echo done-done"
		script := fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Long.", ToolCalls: []fakemodel.ToolCall{shellCall(p, cmd, "long")}}, {Text: "Done."}}}
		r := runYume(t, p, script, gui{answer: func(int) bool { return true }}, "--mode", "pty", "--prompt", "run it")
		return len(r.uses) == 1 && r.uses[0].Input["command"] == cmd && strings.Contains(r.results[r.uses[0].ID].Content, "done-done"), ""
	}},
	{"file edit", func(t *testing.T, p string) (bool, string) {
		const name, content = "notes.md", "# Notes\n"
		var ws string
		r := runYumeWith(t, p, func(w string) fakemodel.Script {
			ws = w
			return fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Writing.", ToolCalls: []fakemodel.ToolCall{writeCall(p, w, name, content)}}, {Text: "Written."}}}
		}, gui{answer: func(int) bool { return true }}, nil, "--mode", "pty", "--prompt", "write notes")
		b, err := os.ReadFile(filepath.Join(ws, name))
		return err == nil && string(b) == content && len(r.uses) == 1 && r.uses[0].Name == "Write", ""
	}},
	{"turn end", func(t *testing.T, p string) (bool, string) {
		script := fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Just words, no tools."}}}
		r := runYume(t, p, script, gui{}, "--mode", "pty", "--prompt", "say something")
		f := r.final()
		return f != nil && f["is_error"] != true && f.str("result") == "Just words, no tools." && r.took < 30*time.Second,
			fmt.Sprintf("%.1fs", r.took.Seconds())
	}},
}

// TestDrift runs the drift cases on the CLIs in E2E_BIN (the agents in
// their TUI) and appends one JSON line per case to E2E_DRIFT_OUT
// (scripts/drift.sh makes the matrix).
func TestDrift(t *testing.T) {
	out := os.Getenv("E2E_DRIFT_OUT")
	if out == "" {
		t.Skip("run by make drift (E2E_DRIFT_OUT names the results file)")
	}
	f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, provider := range append(append([]string{}, providers...), agents...) {
		if _, err := os.Stat(filepath.Join(binDir(t), provider)); err != nil {
			continue
		}
		// The release under test, as drift.sh installed it: a CLI's own
		// --version may name another (Copilot runs an update it cached).
		version := []byte(os.Getenv("E2E_DRIFT_VERSION"))
		if len(version) == 0 {
			version, _ = exec.Command(filepath.Join(binDir(t), provider), "--version").Output()
		}
		for _, c := range driftCases {
			t.Run(provider+"/"+c.name, func(t *testing.T) {
				ok, note := c.run(t, provider)
				if !ok {
					t.Errorf("%s: %s failed %s", provider, c.name, note)
				}
				b, _ := json.Marshal(map[string]any{"cli": provider, "version": strings.TrimSpace(string(version)),
					"case": c.name, "pass": ok && !t.Failed(), "note": note})
				_, _ = f.Write(append(b, '\n'))
			})
		}
	}
}

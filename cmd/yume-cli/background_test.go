//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/background"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/run"
)

// TestYumeBackgroundSpawnLine: the line parses, as Yume's Rust side
// spells it (anthropic, yume-implementer).
func TestYumeBackgroundSpawnLine(t *testing.T) {
	dir := t.TempDir()
	var got *StartOptions
	root := NewRootCmd(&run.IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, func(o *StartOptions) error { got = o; return nil })
	root.SetArgs(backgroundLine("anthropic", dir, "agent-1700000000000-00ab", filepath.Join(dir, "out.json"), "yume-async/x", "fix it"))
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.ProviderName != "anthropic" || got.Provider.Name != "claude" || got.AgentType != "implementer" || !got.Async ||
		got.OutputFile != filepath.Join(dir, "out.json") || got.GitBranch != "yume-async/x" || got.SessionID != "agent-1700000000000-00ab" ||
		got.Permission != permission.Auto || got.AutoGuard != "on" {
		t.Errorf("options %+v", got)
	}
}

// TestBackgroundAgentAsYumeStartsIt: an ordinary command runs, on the
// agent's branch (made from HEAD), its role on Claude's command line, with
// the branch_switch and progress lines on stderr and the output file
// Yume reads; a guarded one is blocked in auto mode, and the run still
// succeeds.
func TestBackgroundAgentAsYumeStartsIt(t *testing.T) {
	bin := buildCLI(t)
	for _, guarded := range []bool{false, true} {
		command := map[bool]string{false: "touch made.txt", true: "rm -rf victim"}[guarded]
		t.Run(command, func(t *testing.T) {
			r := newAgentRun(t, bin, command)
			r.run(t)
			if r.exit != 0 || r.branchNow(t) != r.branch {
				t.Errorf("exit %d, on %s: want 0, on %s", r.exit, r.branchNow(t), r.branch)
			}
			sw := r.stderrLines("branch_switch")
			if len(sw) != 1 || sw[0]["success"] != true || sw[0]["branch"] != r.branch || sw[0]["created"] != true {
				t.Errorf("branch_switch lines %v", sw)
			}
			progress := r.stderrLines("progress")
			var actions []string
			for _, p := range progress {
				actions = append(actions, p["current_action"].(string))
			}
			if want := []string{"starting", "Bash: " + command, "completed"}; !reflect.DeepEqual(actions, want) {
				t.Errorf("progress actions %q, want %q", actions, want)
			}
			if i := slices.Index(r.args, "--append-system-prompt"); i < 0 || !strings.HasPrefix(r.args[i+1], "You are Yume's implementer agent") {
				t.Errorf("Claude's command line %q lacks the role", r.args)
			}
			if !containsSeq(r.args, "--permission-prompt-tool", "stdio") {
				t.Errorf("Claude's command line %q: its calls are not asked", r.args)
			}
			y := readYumeOutput(t, r.output)
			if *y.Session.ID != r.id || !*y.Result.Success || *y.Session.Usage.InputTokens != 3 || *y.Session.Usage.OutputTokens != 2 || *y.Result.NumTurns < 1 {
				t.Errorf("output: %+v %+v", *y.Session, *y.Result)
			}
			h := *y.Session.History
			if len(h) < 3 || *h[0].Role != "user" || *h[0].Content != "do it" || *h[1].Role != "assistant" || len(h[1].ToolCalls) != 1 || *h[len(h)-1].Role != "tool" {
				t.Errorf("history %s", mustJSON(h))
			}
			_, madeErr := os.Stat(filepath.Join(r.cwd, "made.txt"))
			_, victimErr := os.Stat(filepath.Join(r.cwd, "victim", "keep.txt"))
			if guarded {
				if victimErr != nil || !strings.Contains(r.stdout, `"subtype":"error","message":"yume-cli did not run rm -rf victim (rule recursive-delete`) {
					t.Errorf("the guarded command: victim %v", victimErr)
				}
			} else if madeErr != nil {
				t.Errorf("the ordinary command did not run: %v", madeErr)
			}
		})
	}
}

// A tree with uncommitted changes stays on its branch, said on stderr and
// in a system notice, and the turn goes on there.
func TestBackgroundAgentDirtyTree(t *testing.T) {
	r := newAgentRun(t, buildCLI(t), "touch made.txt")
	if err := os.WriteFile(filepath.Join(r.cwd, "tracked.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, r.cwd, "add", "tracked.txt")
	r.run(t)
	if r.exit != 0 || r.branchNow(t) != "main" {
		t.Errorf("exit %d on %s: want 0, still on main", r.exit, r.branchNow(t))
	}
	sw := r.stderrLines("branch_switch")
	if len(sw) != 1 || sw[0]["success"] != false || !strings.Contains(sw[0]["error"].(string), "uncommitted changes to 1 tracked file(s)") {
		t.Errorf("branch_switch lines %v", sw)
	}
	if !strings.Contains(r.stdout, `"subtype":"notice","message":"yume-cli: --git-branch yume-async/implementer-1: not switched (the working tree has uncommitted changes`) {
		t.Error("no system notice says the tree was not switched")
	}
	if _, err := os.Stat(filepath.Join(r.cwd, "made.txt")); err != nil {
		t.Errorf("the turn did not go on: %v", err)
	}
	if y := readYumeOutput(t, r.output); !*y.Result.Success {
		t.Errorf("output %+v", *y.Result)
	}
}

// A working tree another agent holds is refused at the start, naming it:
// nothing runs, the branch is not touched, the output file says why.
func TestBackgroundAgentTreeHeld(t *testing.T) {
	r := newAgentRun(t, buildCLI(t), "touch made.txt")
	lock, err := background.LockTree(context.Background(), r.cwd, background.Holder{PID: os.Getpid(), Branch: "yume-async/other", Started: time.Now().UnixMilli()})
	if err != nil || lock == nil {
		t.Fatalf("lock: %v", err)
	}
	defer lock.Release()
	r.run(t)
	if r.exit != 1 || r.branchNow(t) != "main" {
		t.Errorf("exit %d on %s: want 1, on main", r.exit, r.branchNow(t))
	}
	held := "belongs to a running yume-cli agent (pid " + strconv.Itoa(os.Getpid()) + ", on branch yume-async/other"
	sw := r.stderrLines("branch_switch")
	if len(sw) != 1 || sw[0]["success"] != false || !strings.Contains(sw[0]["error"].(string), held) {
		t.Errorf("branch_switch lines %v", sw)
	}
	if !strings.Contains(r.stdout, `"subtype":"error","message":"--git-branch yume-async/implementer-1: the working tree `) || !strings.Contains(r.stdout, held) {
		t.Error("no system error names the agent holding the tree")
	}
	if _, err := os.Stat(filepath.Join(r.cwd, "made.txt")); err == nil || r.args != nil {
		t.Error("the agent ran in a tree another agent holds")
	}
	y := readYumeOutput(t, r.output)
	if *y.Result.Success || !strings.Contains(y.Result.Error, held) {
		t.Errorf("output %+v", *y.Result)
	}
	if h := *y.Session.History; len(h) == 0 || *h[0].Role != "user" || *h[0].Content != "do it" {
		t.Errorf("the output's history %s: want the prompt that did not run", mustJSON(h))
	}
	// Once the other agent is gone, the tree is free.
	lock.Release()
	r.run(t)
	if r.exit != 0 || r.branchNow(t) != r.branch {
		t.Errorf("after the release: exit %d on %s", r.exit, r.branchNow(t))
	}
}

// Nobody reads stdout (Yume's background agents): the run still ends, and
// its output file is whole.
func TestBackgroundAgentUnreadStdout(t *testing.T) {
	r := newAgentRun(t, buildCLI(t), "seq 1 40000")
	r.unread = true
	r.run(t) // a run that waits for the reader never ends: run fails it
	if r.exit != 0 {
		t.Errorf("exit %d", r.exit)
	}
	y := readYumeOutput(t, r.output)
	if !*y.Result.Success || len(*y.Session.History) < 3 {
		t.Errorf("output %+v", *y.Result)
	}
}

// A turn the provider fails: a non-zero exit (Yume marks the agent
// failed), the output file written with success false, why, and the usage
// the failed turn had; the last progress line says it failed.
func TestBackgroundAgentTurnFails(t *testing.T) {
	r := newAgentRun(t, buildCLI(t), "touch made.txt")
	r.fail = "API Error: 529 overloaded"
	r.run(t)
	if r.exit != 1 {
		t.Errorf("exit %d, want 1", r.exit)
	}
	y := readYumeOutput(t, r.output)
	if *y.Result.Success || !strings.Contains(y.Result.Error, "529 overloaded") || *y.Session.Usage.InputTokens != 5 {
		t.Errorf("output %s", mustJSON(y))
	}
	progress := r.stderrLines("progress")
	if n := len(progress); n == 0 || progress[n-1]["current_action"] != "failed" {
		t.Errorf("progress lines %v: want the last to say failed", progress)
	}
	if _, err := os.Stat(filepath.Join(r.cwd, "made.txt")); err == nil {
		t.Error("the failed turn ran its command")
	}
}

// A run stopped by a usage error still leaves the output file Yume reads.
func TestBackgroundAgentUsageError(t *testing.T) {
	dir := t.TempDir()
	output := filepath.Join(dir, "out", "a.json")
	code, _, stderr := runMain(t, "", "--provider", "anthropic", "--cwd", dir, "--session-id", "agent-9", "--prompt", "x",
		"--agent-type", "wizard", "--output-file", output)
	if code != 2 || !strings.Contains(stderr, `invalid value "wizard" for --agent-type`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	y := readYumeOutput(t, output)
	if *y.Session.ID != "agent-9" || *y.Result.Success || !strings.Contains(y.Result.Error, "wizard") {
		t.Errorf("output %+v %+v", *y.Session, *y.Result)
	}
	// A flag the parser refuses, before --output-file was read.
	output2 := filepath.Join(dir, "b.json")
	code, _, _ = runMain(t, "", "--provider", "anthropic", "--max-turns", "3", "--output-file", output2, "--session-id", "agent-10")
	if y := readYumeOutput(t, output2); code != 2 || *y.Result.Success || *y.Session.ID != "agent-10" {
		t.Errorf("exit %d, output %+v", code, *y.Result)
	}
}

// doctor says what auto mode does with the guard, and where that comes
// from: the default, or YUME_AUTO_GUARD (the environment, or the settings
// file's env:).
func TestDoctorAutoMode(t *testing.T) {
	home := t.TempDir()
	t.Setenv("YUME_HOME", filepath.Join(home, ".yume"))
	t.Setenv("PATH", "/nonexistent")
	code, stdout, _ := runMain(t, "", "doctor")
	if code != 0 || !strings.Contains(stdout, "auto mode: with nobody to answer (stdin /dev/null: Yume, its background agents) auto mode keeps the guard's list") {
		t.Errorf("doctor (%d):\n%s", code, stdout)
	}
	writeSettings(t, home, "env:\n  YUME_AUTO_GUARD: 'off'\n")
	_, stdout, _ = runMain(t, "", "doctor", "--json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Settings.AutoMode, "runs the CLI's own allow-all") || !slices.ContainsFunc(rep.Settings.Entries, func(r run.SettingRow) bool {
		return r.Key == "auto_guard" && r.Value == "off" && strings.HasSuffix(r.From, "settings.yaml:2")
	}) {
		t.Errorf("doctor --json: %+v", rep.Settings)
	}
}

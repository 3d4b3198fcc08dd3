//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/yumeagent"
)

// The harness of the background agent tests (background_test.go): yume-cli
// started as Yume starts a background agent, and the AgentOutput it leaves.

func readYumeOutput(t *testing.T, path string) yumeagent.Output {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the output file: %v", err)
	}
	y, err := yumeagent.Decode(data)
	if err != nil {
		t.Fatalf("the output file: %v\n%s", err, data)
	}
	return y
}

// backgroundLine is Yume's background agents' spawn line.
func backgroundLine(provider, cwd, id, output, branch, prompt string) []string {
	return []string{"--provider", provider, "--model", "m", "--cwd", cwd, "--session-id", id, "--prompt", prompt,
		"--permission-mode", "auto", "--agent-type", "yume-implementer", "--output-file", output, "--async", "--git-branch", branch}
}

func containsSeq(args []string, a, b string) bool {
	i := slices.Index(args, a)
	return i >= 0 && i+1 < len(args) && args[i+1] == b
}

// gitRepo makes a repository with one commit on main and an untracked
// victim folder.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"commit", "-q", "--allow-empty", "-m", "start"}} {
		gitCmd(t, dir, args...)
	}
	if err := os.MkdirAll(filepath.Join(dir, "victim"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "victim", "keep.txt"), []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func gitCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// agentRun is yume-cli started as Yume starts a background agent, the
// test binary playing Claude Code (fakeclaude_test.go), found through the
// settings file.
type agentRun struct {
	bin, home, cwd, output, branch, id string
	command                            string // what the fake Claude runs
	unread                             bool   // stdout is a pipe nobody reads
	fail                               string // the fake Claude's turn fails with this
	extra                              []string

	exit           int
	stdout, stderr string
	args           []string // the fake Claude's command line
}

func newAgentRun(t *testing.T, bin, command string) *agentRun {
	home := t.TempDir()
	return &agentRun{bin: bin, home: home, cwd: gitRepo(t), output: filepath.Join(home, "agent-output", "agent-1.json"),
		branch: "yume-async/implementer-1", id: "agent-1700000000000-0001", command: command}
}

// agentHang is when a run that has not ended counts as hung: far beyond
// what one takes, so that a busy machine does not fail the test.
const agentHang = 2 * time.Minute

func (r *agentRun) run(t *testing.T) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r.exit, r.args = 0, nil
	argsFile := filepath.Join(r.home, "claude-args.json")
	_ = os.Remove(argsFile)
	writeSettings(t, r.home, "providers:\n  claude:\n    bin: "+self+"\n    env:\n      YUME_FAKE_CLAUDE: '"+r.command+"'\n      YUME_FAKE_CLAUDE_ARGS: "+argsFile+"\n      YUME_FAKE_CLAUDE_FAIL: '"+r.fail+"'\n")
	ctx, cancel := context.WithTimeout(context.Background(), agentHang)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.bin, append(backgroundLine("anthropic", r.cwd, r.id, r.output, r.branch, "do it"), r.extra...)...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + r.home}
	cmd.Dir = r.home
	var stdout, stderr bytes.Buffer
	cmd.Stderr = &stderr
	if r.unread {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		cmd.Stdout = pw
		defer pw.Close()
	} else {
		cmd.Stdout = &stdout
	}
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("yume-cli did not end within %v (stdout unread: %v)\n%s", agentHang, r.unread, stderr.String())
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	}
	r.stdout, r.stderr = stdout.String(), stderr.String()
	if b, err := os.ReadFile(argsFile); err == nil {
		_ = json.Unmarshal(b, &r.args)
	}
	if !r.unread {
		_ = streamTypes(t, r.stdout) // conformance
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("exit %d\nstdout:\n%s\nstderr:\n%s", r.exit, r.stdout, r.stderr)
		}
	})
}

func (r *agentRun) stderrLines(typ string) []map[string]any {
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(r.stderr))
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

func (r *agentRun) branchNow(t *testing.T) string {
	return gitCmd(t, r.cwd, "symbolic-ref", "--short", "HEAD")
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

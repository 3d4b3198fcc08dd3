package background

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// newRepo makes a git repository in a temp dir with one commit on main
// (a.txt), or none when empty.
func newRepo(t *testing.T, empty bool) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on this machine")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	if !empty {
		write(t, filepath.Join(dir, "a.txt"), "one\n")
		run(t, dir, "add", "a.txt")
		run(t, dir, "commit", "-q", "-m", "first")
	}
	return dir
}

// run runs git in dir for a test's setup, as a person with no config.
func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func current(t *testing.T, dir string) string {
	t.Helper()
	return run(t, dir, "symbolic-ref", "--short", "HEAD")
}

func TestSwitchBranchCreatesFromHEAD(t *testing.T) {
	dir := newRepo(t, false)
	head := run(t, dir, "rev-parse", "HEAD")
	b := SwitchBranch(context.Background(), dir, "yume-async-implementer-1")
	if !b.Success || !b.Created || b.Already || b.From != "main" || b.Err != "" {
		t.Fatalf("switch: %+v", b)
	}
	if got := current(t, dir); got != "yume-async-implementer-1" {
		t.Errorf("on %s", got)
	}
	if got := run(t, dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("the new branch starts at %s, want HEAD %s", got, head)
	}
}

func TestSwitchBranchExisting(t *testing.T) {
	dir := newRepo(t, false)
	run(t, dir, "switch", "-q", "-c", "feature")
	write(t, filepath.Join(dir, "b.txt"), "feature work\n")
	run(t, dir, "add", "b.txt")
	run(t, dir, "commit", "-q", "-m", "feature")
	run(t, dir, "switch", "-q", "main")
	b := SwitchBranch(context.Background(), dir, "feature")
	if !b.Success || b.Created || b.From != "main" {
		t.Fatalf("switch: %+v", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err != nil {
		t.Errorf("the feature branch's file is not there: %v", err)
	}
	again := SwitchBranch(context.Background(), dir, "feature")
	if !again.Success || !again.Already {
		t.Errorf("switch to the branch it is on: %+v", again)
	}
}

// A tree with uncommitted changes stays where it is, its changes whole.
func TestSwitchBranchDirtyTreeStays(t *testing.T) {
	dir := newRepo(t, false)
	write(t, filepath.Join(dir, "a.txt"), "changed, not committed\n")
	b := SwitchBranch(context.Background(), dir, "agent")
	if b.Success || !strings.Contains(b.Err, "uncommitted changes to 1 tracked file(s); it stays on main") {
		t.Fatalf("switch: %+v", b)
	}
	if got := current(t, dir); got != "main" {
		t.Errorf("on %s", got)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(data) != "changed, not committed\n" {
		t.Errorf("the change is lost: %q", data)
	}
	if out := run(t, dir, "branch", "--list", "agent"); out != "" {
		t.Errorf("the branch was made: %q", out)
	}
	if !strings.Contains(b.Notice(), "--git-branch agent: not switched (the working tree has uncommitted") {
		t.Errorf("notice %q", b.Notice())
	}
}

// An untracked file the branch would overwrite: git refuses, and the file
// is left alone.
func TestSwitchBranchRefusedKeepsFiles(t *testing.T) {
	dir := newRepo(t, false)
	run(t, dir, "switch", "-q", "-c", "other")
	write(t, filepath.Join(dir, "c.txt"), "committed on other\n")
	run(t, dir, "add", "c.txt")
	run(t, dir, "commit", "-q", "-m", "c")
	run(t, dir, "switch", "-q", "main")
	write(t, filepath.Join(dir, "c.txt"), "mine, untracked\n")
	b := SwitchBranch(context.Background(), dir, "other")
	if b.Success || !strings.Contains(b.Err, "git switch other:") || !strings.Contains(b.Err, "would be overwritten") {
		t.Fatalf("switch: %+v", b)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "c.txt")); string(data) != "mine, untracked\n" {
		t.Errorf("the untracked file changed: %q", data)
	}
	if got := current(t, dir); got != "main" {
		t.Errorf("on %s", got)
	}
}

// A branch checked out in another worktree is not switched to (git says
// so): two agents never share a branch.
func TestSwitchBranchCheckedOutElsewhere(t *testing.T) {
	dir := newRepo(t, false)
	other := filepath.Join(t.TempDir(), "wt")
	run(t, dir, "worktree", "add", "-q", "-b", "taken", other)
	b := SwitchBranch(context.Background(), dir, "taken")
	if b.Success || !strings.Contains(b.Err, "taken") {
		t.Fatalf("switch: %+v", b)
	}
	if got := current(t, dir); got != "main" {
		t.Errorf("on %s", got)
	}
	// The linked worktree itself switches as any tree does.
	if b := SwitchBranch(context.Background(), other, "second"); !b.Success || current(t, other) != "second" {
		t.Errorf("switch in the linked worktree: %+v", b)
	}
}

func TestSwitchBranchEmptyRepo(t *testing.T) {
	dir := newRepo(t, true)
	b := SwitchBranch(context.Background(), dir, "agent")
	if !b.Success || current(t, dir) != "agent" {
		t.Fatalf("switch in a repository with no commit: %+v", b)
	}
}

func TestSwitchBranchDetachedHEAD(t *testing.T) {
	dir := newRepo(t, false)
	run(t, dir, "switch", "-q", "--detach")
	b := SwitchBranch(context.Background(), dir, "agent")
	if !b.Success || !b.Created || len(b.From) < 7 {
		t.Fatalf("switch from a detached HEAD: %+v", b)
	}
}

func TestSwitchBranchNotARepo(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	b := SwitchBranch(context.Background(), dir, "agent")
	if b.Success || !strings.Contains(b.Err, "is not in a git working tree") {
		t.Fatalf("switch: %+v", b)
	}
}

func TestSwitchBranchBadNames(t *testing.T) {
	dir := newRepo(t, false)
	for _, name := range []string{"", "-f", "--force", "HEAD", "@{-1}", "a..b", "has space", "ends.lock", "x~1"} {
		b := SwitchBranch(context.Background(), dir, name)
		if b.Success || !strings.Contains(b.Err, "is not a branch name git takes") {
			t.Errorf("%q: %+v", name, b)
		}
	}
	if got := current(t, dir); got != "main" {
		t.Errorf("on %s", got)
	}
}

func TestBranchLine(t *testing.T) {
	at := time.UnixMilli(1700000000123)
	var ok, failed map[string]any
	if err := json.Unmarshal(BranchLine(Branch{Name: "b", Success: true}, at), &ok); err != nil {
		t.Fatal(err)
	}
	if ok["type"] != "branch_switch" || ok["branch"] != "b" || ok["success"] != true || ok["timestamp"] != 1700000000123.0 || ok["error"] != nil {
		t.Errorf("success line %v", ok)
	}
	line := BranchLine(Branch{Name: "b", Err: "no"}, at)
	if err := json.Unmarshal(line, &failed); err != nil || !strings.HasSuffix(string(line), "}\n") || strings.Count(string(line), "\n") != 1 {
		t.Fatalf("%q: %v", line, err)
	}
	if failed["success"] != false || failed["error"] != "no" {
		t.Errorf("failure line %v", failed)
	}
}

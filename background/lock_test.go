package background

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// holdEnv makes the test binary a process that locks the tree the
// variable names, says "locked", and waits to be killed.
const holdEnv = "BACKGROUND_TEST_HOLD_LOCK"

func TestMain(m *testing.M) {
	if dir := os.Getenv(holdEnv); dir != "" {
		if _, err := LockTree(context.Background(), dir, Holder{PID: os.Getpid(), Branch: "held-by-child", Started: time.Now().UnixMilli()}); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestLockTreeRefusesASecondAgent(t *testing.T) {
	dir := newRepo(t, false)
	first, err := LockTree(context.Background(), dir, Holder{PID: 4242, Branch: "agent-a", Session: "agent-1", Started: 1700000000000})
	if err != nil || first == nil {
		t.Fatalf("first lock: %v %v", first, err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, ".git", LockName))
	if !strings.Contains(string(data), `"pid":4242`) || !strings.Contains(string(data), `"branch":"agent-a"`) {
		t.Errorf("the lock file says %q", data)
	}
	_, err = LockTree(context.Background(), filepath.Join(dir), Holder{PID: os.Getpid(), Branch: "agent-b"})
	var held *HeldError
	if !errors.As(err, &held) || held.Holder.PID != 4242 || held.Holder.Branch != "agent-a" {
		t.Fatalf("second lock: %v", err)
	}
	for _, want := range []string{"belongs to a running yume-cli agent (pid 4242, on branch agent-a, session agent-1, since 2023-11-14T22:13:20Z)", "git worktree add"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	// From a folder inside the tree too.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := LockTree(context.Background(), sub, Holder{PID: os.Getpid()}); !errors.As(err, &held) {
		t.Errorf("lock from a subfolder: %v", err)
	}
	first.Release()
	again, err := LockTree(context.Background(), dir, Holder{PID: os.Getpid(), Branch: "agent-b"})
	if err != nil || again == nil {
		t.Fatalf("lock after the release: %v", err)
	}
	again.Release()
}

// Each worktree is a working tree of its own: agents in two of them do
// not stand in each other's way.
func TestLockTreeWorktreesApart(t *testing.T) {
	dir := newRepo(t, false)
	other := filepath.Join(t.TempDir(), "wt")
	run(t, dir, "worktree", "add", "-q", "-b", "wt", other)
	a, err := LockTree(context.Background(), dir, Holder{PID: 1, Branch: "main"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b, err := LockTree(context.Background(), other, Holder{PID: 2, Branch: "wt"})
	if err != nil || b == nil {
		t.Fatalf("the other worktree: %v", err)
	}
	b.Release()
}

// A lock whose process is gone (killed outright) does not stand in the
// way, nor does a file naming a dead pid.
func TestLockTreeDeadHolder(t *testing.T) {
	dir := newRepo(t, false)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), holdEnv+"="+dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("the child said %q", line)
	}
	var held *HeldError
	if _, err := LockTree(context.Background(), dir, Holder{PID: os.Getpid()}); !errors.As(err, &held) || held.Holder.PID != cmd.Process.Pid || held.Holder.Branch != "held-by-child" {
		t.Fatalf("while the child holds it: %v", err)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	l, err := LockTree(context.Background(), dir, Holder{PID: os.Getpid(), Branch: "mine"})
	if err != nil {
		t.Fatalf("after the holder died: %v", err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, ".git", LockName))
	if !strings.Contains(string(data), fmt.Sprintf(`"pid":%d`, os.Getpid())) || strings.Contains(string(data), "held-by-child") {
		t.Errorf("the lock file says %q", data)
	}
	l.Release()
	if data, _ := os.ReadFile(filepath.Join(dir, ".git", LockName)); len(data) != 0 {
		t.Errorf("released, the file still says %q", data)
	}
}

func TestLockTreeNotARepo(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	l, err := LockTree(context.Background(), dir, Holder{PID: 1})
	if l != nil || err != nil {
		t.Errorf("outside a repository: %v %v", l, err)
	}
	l.Release() // a nil lock releases nothing
}

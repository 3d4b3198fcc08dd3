package ptyhost

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSelfUpdatesFindsAGrandchild: a CLI's self-update runs under the
// CLI, not under yume-cli; the walk follows each thread's children list
// down the tree, and sees a program that ended as gone.
func TestSelfUpdatesFindsAGrandchild(t *testing.T) {
	dir := t.TempDir()
	npm, script := filepath.Join(dir, "npm"), filepath.Join(dir, "cli")
	for path, text := range map[string]string{npm: "read -r line\n", script: npm + " i -g some-cli\necho done\n"} {
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cli := exec.Command(script)
	cli.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cli.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cli.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(-cli.Process.Pid, syscall.SIGKILL); _ = cli.Wait() }()
	var found []string
	for deadline := time.Now().Add(10 * time.Second); len(found) == 0 && time.Now().Before(deadline); found = SelfUpdates() {
		time.Sleep(5 * time.Millisecond) // Polling: the grandchild is being started.
	}
	if len(found) != 1 || !strings.HasSuffix(found[0], npm+" i -g some-cli") {
		t.Fatalf("SelfUpdates = %q, want the npm under the shell", found)
	}
	_ = stdin.Close() // the update reads EOF and ends
	if err := cli.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := SelfUpdates(); len(got) != 0 {
		t.Fatalf("after the update ended: SelfUpdates = %q", got)
	}
}

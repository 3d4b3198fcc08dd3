//go:build linux

package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestNoDaemonLeftBehind: a program that detaches a daemon into a session
// of its own (as Codex does with its app-server) escapes the group kill;
// yume-cli adopts it and ends it before exiting.
func TestNoDaemonLeftBehind(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "yume-cli")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	script := `setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > daemon.pid; printf 'Keep going? (y/n) '; read a`
	cmd := exec.Command(bin, "--permission-mode", "auto", "--cwd", dir, "--", "sh", "-c", script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("yume-cli: %v\n%s\n%s", err, out, stderr.String())
	}
	pid := waitPids(t, filepath.Join(dir, "daemon.pid"))[0]
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond) // Polling a condition under a deadline.
	}
	if alive(pid) {
		t.Errorf("the detached daemon %d outlived yume-cli", pid)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

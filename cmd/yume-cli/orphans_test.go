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

// TestNothingOutlivesSIGKILL: Yume's spawner kills yume-cli with SIGKILL.
// The program's own child, a child that ignores SIGHUP and SIGTERM, a
// daemon in a session of its own and a double-forked one all end anyway:
// the watchdog sees yume-cli go and ends every process carrying its
// marker. Checked through /proc.
func TestNothingOutlivesSIGKILL(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "yume-cli")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	script := `sleep 300 & echo $! > child.pid
(trap '' HUP TERM; exec sleep 301) & echo $! > stubborn.pid
setsid sleep 302 </dev/null >/dev/null 2>&1 & echo $! > daemon.pid
(setsid sh -c 'sleep 303 & echo $! > double.pid' &)
printf 'Keep going? (y/n) '; read a`
	cmd := exec.Command(bin, "--cwd", dir, "--", "sh", "-c", script)
	stdin, _ := cmd.StdinPipe() // a GUI that never answers: the question waits
	defer stdin.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPids(t, filepath.Join(dir, "child.pid"), filepath.Join(dir, "stubborn.pid"),
		filepath.Join(dir, "daemon.pid"), filepath.Join(dir, "double.pid"))
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond) // Polling a condition under a deadline.
		}
		if alive(pid) {
			t.Errorf("process %d outlived a SIGKILL of yume-cli", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

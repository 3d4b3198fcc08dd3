//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/leakcheck"
	"github.com/yume-cli/yume-cli/ptyhost"
	"golang.org/x/sys/unix"
)

// TestNoDaemonLeftBehind: a program that detaches a daemon into a session
// of its own (as Codex does with its app-server) escapes the group kill;
// yume-cli adopts it and ends it before exiting.
func TestNoDaemonLeftBehind(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	script := `setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > daemon.pid; printf 'Keep going? (y/n) '; read a`
	cmd := exec.Command(bin, "--permission-mode", "auto", "--cwd", dir, "--", "sh", "-c", script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("yume-cli: %v\n%s\n%s", err, out, stderr.String())
	}
	leakcheck.WaitGone(t, waitPids(t, filepath.Join(dir, "daemon.pid"))[0], 5*time.Second)
}

// TestNothingOutlivesSIGKILL: Yume's spawner kills yume-cli with SIGKILL.
// The program's own child, a child that ignores SIGHUP and SIGTERM, a
// daemon in a session of its own and a double-forked one all end anyway:
// the watchdog sees yume-cli go and ends every process carrying its
// marker. Checked through /proc.
func TestNothingOutlivesSIGKILL(t *testing.T) {
	bin := buildCLI(t)
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
	for _, pid := range pids {
		leakcheck.WaitGone(t, pid, 10*time.Second)
	}
}

// TestEveryEndComes: a program that closes its terminal and keeps running,
// or that exits leaving jobs that keep the terminal (a job in a session of
// its own, one that ignores SIGHUP and SIGTERM, a double-forked daemon),
// ends the turn within a few seconds with one result, and nothing it
// started is alive once yume-cli has exited. Checked through /proc.
func TestEveryEndComes(t *testing.T) {
	bin := buildCLI(t)
	for _, c := range []struct{ name, script string }{
		{"closes its terminal and runs on", `echo $$ > a.pid; exec sleep 310 </dev/null >/dev/null 2>&1`},
		{"job in its own session holds the terminal", `setsid sleep 311 & echo $! > a.pid`},
		{"job ignores SIGHUP and SIGTERM", `(trap '' HUP TERM; exec sleep 312) & echo $! > a.pid`},
		{"double-forked daemon", `(setsid sh -c 'sleep 313 & echo $! > a.pid' &)`},
		{"background job writes on", `(trap '' HUP; while :; do echo tick; sleep 0.05; done) & echo $! > a.pid`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			// The pid file is written before the program's end, so the
			// wait below never races it.
			script := c.script + "\nwhile [ ! -s a.pid ]; do sleep 0.01; done; echo working"
			cmd := exec.Command(bin, "--cwd", dir, "--prompt", "go", "--", "sh", "-c", script)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("yume-cli still waiting after 15s\nstdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			}
			t.Logf("ended in %v", time.Since(start).Round(time.Millisecond))
			types := streamTypes(t, stdout.String())
			if n := strings.Count(strings.Join(types, ","), "result"); n != 1 {
				t.Errorf("%d results: %v", n, types)
			}
			leakcheck.WaitGone(t, waitPids(t, filepath.Join(dir, "a.pid"))[0], 5*time.Second)
		})
	}
}

// TestSIGKILLLeavesNothingInTime: Yume's spawner kills yume-cli with
// SIGKILL while a question waits for the GUI. The program ignores SIGTERM
// and SIGHUP and has started a grandchild, which inherits that: the
// watchdog SIGKILLs both when its grace is over, and they are gone soon
// after, however busy the machine. Several runs, the last one with the
// CPU loaded and processes whose environment a /proc scan waits for
// started beside yume-cli.
func TestSIGKILLLeavesNothingInTime(t *testing.T) {
	bin := buildCLI(t)
	const grace, slack = ptyhost.DefaultGrace, 500 * time.Millisecond
	script := `trap '' HUP TERM; sleep 300 & echo $! > grandchild.pid; echo $$ > child.pid; printf 'Keep going? (y/n) '; read a`
	for run := 1; run <= 6; run++ {
		loaded := run == 6
		t.Run(fmt.Sprintf("run %d, loaded %v", run, loaded), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(bin, "--cwd", dir, "--", "sh", "-c", script)
			stdin, _ := cmd.StdinPipe() // a GUI that never answers: the question waits
			defer stdin.Close()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(stdout)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() && !strings.Contains(sc.Text(), `"control_request"`) {
			}
			pids := waitPids(t, filepath.Join(dir, "child.pid"), filepath.Join(dir, "grandchild.pid"))
			if loaded {
				startLoad(t)
			}
			start := time.Now()
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			for _, pid := range pids {
				leakcheck.WaitGone(t, pid, time.Until(start.Add(grace+slack)))
			}
			t.Logf("the program and its grandchild gone %v after yume-cli's SIGKILL (grace %v)", time.Since(start).Round(time.Millisecond), grace)
		})
	}
}

// TestWatchdogInYumeCLIsSession: the watchdog has a process group of its
// own (a kill of yume-cli's group does not reach it) but stays in
// yume-cli's session. In a session of its own it was, with Linux's
// sched_autogroup, a scheduling group of its own, woken up to 1.5 s late
// on a loaded machine: the grace's SIGKILL came half a second late.
func TestWatchdogInYumeCLIsSession(t *testing.T) {
	bin := buildCLI(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "--cwd", dir, "--", "sh", "-c", `printf 'Keep going? (y/n) '; read a`)
	stdin, _ := cmd.StdinPipe() // a GUI that never answers: the question waits
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && !strings.Contains(sc.Text(), `"control_request"`) {
	}
	watchdog := watchdogOf(cmd.Process.Pid)
	if watchdog == 0 {
		t.Fatal("no watchdog among yume-cli's children")
	}
	sid, _ := unix.Getsid(watchdog)
	if want, _ := unix.Getsid(cmd.Process.Pid); sid != want {
		t.Errorf("the watchdog's session is %d, yume-cli's %d: a session of its own is a scheduling group of its own", sid, want)
	}
	if pgid, _ := syscall.Getpgid(watchdog); pgid != watchdog {
		t.Errorf("the watchdog is in process group %d, not one of its own (%d)", pgid, watchdog)
	}
}

// watchdogOf is the child of pid that is a yume-cli watchdog, or 0.
func watchdogOf(pid int) int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, field := range strings.Fields(string(b)) {
			env, _ := os.ReadFile("/proc/" + field + "/environ")
			if bytes.Contains(env, []byte("YUME_WATCHDOG=")) {
				child, _ := strconv.Atoi(field)
				return child
			}
		}
	}
	return 0
}

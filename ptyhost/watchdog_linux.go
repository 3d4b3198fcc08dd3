package ptyhost

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// Nothing outlives yume-cli, not even a SIGKILL of it (Yume's spawner
// kills that way). Every process yume-cli starts inherits a marker in its
// environment; a small watchdog (yume-cli itself, in a session of its own)
// waits on a pipe only yume-cli holds. When yume-cli is gone, however it
// went, the pipe reads EOF and the watchdog ends every process that still
// carries the marker — detached daemons included — then exits.

// MarkerEnv names the environment variable that marks a session's processes.
const MarkerEnv = "YUME_SESSION_MARKER"

// watchdogEnv tells a yume-cli process to be the watchdog of this marker.
const watchdogEnv = "YUME_WATCHDOG"

var (
	watchdogPID int
	// watchdogUp is closed once the watchdog's start is over (started or
	// not): EndOrphans must know its PID, not end it as an orphan.
	watchdogUp chan struct{}
)

// StartWatchdog marks this process's environment (so every child inherits
// the marker) and starts the watchdog, in the background: its exec takes
// milliseconds that every yume-cli run would otherwise wait. Call it early
// in main.
func StartWatchdog() error {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand does not fail on Linux.
	marker := hex.EncodeToString(b[:])
	self, err := os.Executable()
	if err != nil {
		return err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), watchdogEnv+"="+marker)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	_ = os.Setenv(MarkerEnv, marker) // before any child starts
	keepOpen = w
	up := make(chan struct{})
	watchdogUp = up
	go func() {
		defer close(up)
		if cmd.Start() == nil {
			watchdogPID = cmd.Process.Pid
		}
		_ = r.Close() // The watchdog's end; ours is w, kept open until we exit.
	}()
	return nil
}

// WatchdogUp waits until the watchdog's start is over, if it began:
// whatever starts a program waits, so that no program runs unwatched.
func WatchdogUp() {
	if watchdogUp != nil {
		<-watchdogUp
	}
}

// keepOpen is the write end of the watchdog's pipe: held, never written.
var keepOpen *os.File

// IsWatchdog reports whether this process was started as a watchdog.
func IsWatchdog() bool { return os.Getenv(watchdogEnv) != "" }

// RunWatchdog is the watchdog: wait for the parent to go, then end the
// marked processes.
func RunWatchdog() {
	marker := os.Getenv(watchdogEnv)
	_, _ = io.Copy(io.Discard, os.Stdin) // Returns when yume-cli's end closes.
	endMarked(marker, 2*time.Second)
}

// endMarked stops every process whose environment carries marker:
// SIGTERM, then SIGKILL after grace.
func endMarked(marker string, grace time.Duration) {
	needle := []byte(MarkerEnv + "=" + marker + "\x00")
	deadline := time.Now().Add(grace)
	for sig := syscall.SIGTERM; ; {
		pids := marked(needle)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, sig) // Best effort: it may have just exited.
		}
		if sig == syscall.SIGKILL {
			return
		}
		time.Sleep(20 * time.Millisecond) // Polling: other processes give no event to wait on.
		if time.Now().After(deadline) {
			sig = syscall.SIGKILL
		}
	}
}

// marked lists live processes (not this one) whose environment has needle.
func marked(needle []byte) []int {
	self := os.Getpid()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile(d + "/environ")
		if err != nil || !bytes.Contains(env, needle) {
			continue
		}
		if st, _ := os.ReadFile(d + "/stat"); bytes.Contains(st, []byte(") Z ")) {
			continue // exited, not reaped yet
		}
		out = append(out, pid)
	}
	return out
}

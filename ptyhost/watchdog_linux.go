package ptyhost

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Nothing outlives yume-cli, not even a SIGKILL of it (Yume's spawner
// kills that way). A small watchdog (yume-cli itself, in a process group
// of its own) reads a pipe only yume-cli holds: yume-cli writes on it each process
// group it starts and each it is done with. When yume-cli is gone, however
// it went, the pipe reads EOF and the watchdog signals those groups at once
// and SIGKILLs them when the grace period is over, on a timer, whatever
// the machine's load (signalGroups, killGroups). Every process yume-cli starts also
// inherits a marker in its environment; the watchdog's second net finds the
// ones outside those groups (detached daemons) by scanning /proc
// (endMarked), which a busy machine can slow down but no longer delays the
// groups' end.

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
	// A process group of its own (a kill of yume-cli's group, or a
	// terminal's signals to it, do not reach the watchdog), but yume-cli's
	// session: a session of its own is, with Linux's sched_autogroup (on
	// by default), a scheduling group of its own, and one that sleeps
	// almost all the time was woken up to 1.5 s late on a loaded machine
	// (measured: 47 of its 20 ms sleeps took over 100 ms in four runs of
	// TestSIGKILLLeavesNothingInTime beside CPU hogs and a test loop, and
	// the grace's SIGKILL came 0.5 s late; in yume-cli's session, none).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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

// keepOpen is the write end of the watchdog's pipe, held until we exit:
// the groups to end go on it (WatchGroup, ForgetGroup).
var (
	keepOpen *os.File
	tellMu   sync.Mutex
)

// tellBound bounds a write to a watchdog that does not read (stopped): the
// group is then left to the marker scan, and yume-cli does not wait.
const tellBound = 100 * time.Millisecond

// WatchGroup tells the watchdog of a process group yume-cli started
// (pgid): if yume-cli is killed, the group is ended at once.
func WatchGroup(pgid int) { tell('+', pgid) }

// ForgetGroup tells the watchdog that yume-cli has ended group pgid
// itself: its id may name another group after that.
func ForgetGroup(pgid int) { tell('-', pgid) }

func tell(op byte, pgid int) {
	WatchdogUp()
	if watchdogPID == 0 || pgid <= 1 {
		return // no watchdog: the group is ended by yume-cli or not at all
	}
	tellMu.Lock()
	defer tellMu.Unlock()
	_ = keepOpen.SetWriteDeadline(time.Now().Add(tellBound))
	_, _ = keepOpen.Write(append(strconv.AppendInt([]byte{op}, int64(pgid), 10), '\n')) // Best effort: the marker scan is the second net.
}

// IsWatchdog reports whether this process was started as a watchdog.
func IsWatchdog() bool { return os.Getenv(watchdogEnv) != "" }

// watchdogGrace is how long the processes left get between SIGTERM (and
// SIGHUP) and SIGKILL.
const watchdogGrace = DefaultGrace

// RunWatchdog is the watchdog: it keeps the list of yume-cli's process
// groups until yume-cli has gone, then ends them and the marked processes.
func RunWatchdog() {
	// Two threads run Go code: the scan (endMarked) must not hold the one
	// the groups' SIGKILL waits for (main sets one for yume-cli itself).
	runtime.GOMAXPROCS(2)
	needle := []byte(MarkerEnv + "=" + os.Getenv(watchdogEnv) + "\x00")
	since := startOf(os.Getppid()) // before the read: yume-cli is still our parent
	groups := readGroups(os.Stdin) // returns when yume-cli's end closes
	endAll(groups, needle, since, watchdogGrace)
}

// readGroups reads yume-cli's "+PGID" and "-PGID" lines until EOF and
// returns the groups still in use.
func readGroups(r io.Reader) map[int]bool {
	groups := map[int]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 2 {
			continue
		}
		pgid, err := strconv.Atoi(line[1:])
		if err != nil || pgid <= 1 {
			continue
		}
		if line[0] == '+' {
			groups[pgid] = true
		} else {
			delete(groups, pgid)
		}
	}
	return groups
}

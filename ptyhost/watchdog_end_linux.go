package ptyhost

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// How the watchdog ends what yume-cli left. The groups yume-cli named get
// SIGTERM, SIGHUP and SIGCONT the moment yume-cli has gone (as Stop sends
// them), and SIGKILL when grace is over, on a timer: nothing on the way
// reads another process's memory, so a loaded machine delays it by a
// scheduling slice, not by seconds. Beside it, in a goroutine of its own,
// the marker scan ends what escaped the groups (a daemon in a session of
// its own). Reading a process's environment takes its memory map's lock,
// which a process busy mapping memory holds for long stretches (measured:
// 160 ms for one read of such a process's environ, on a quiet machine); a
// scan that reads every process's waits for each. So it reads only those
// started since yume-cli did, and the groups' end never waits for it.

// groupPoll is how often the groups are looked at for members left:
// other processes' exits give no event to wait on.
const groupPoll = 20 * time.Millisecond

// scanBound is how long after grace the watchdog waits for a slow scan
// before it exits anyway: it must not be a leftover itself.
const scanBound = 3 * time.Second

// endAll ends groups and the processes whose environment holds needle
// (started since the clock tick since), with grace between SIGTERM and
// SIGKILL.
func endAll(groups map[int]bool, needle []byte, since uint64, grace time.Duration) {
	deadline := time.Now().Add(grace)
	signalGroups(groups)
	found := &marks{fds: map[int]int{}}
	defer found.close()
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		endMarked(needle, since, deadline, found)
	}()
	killGroups(groups, deadline)
	found.killAll() // what the scan found so far, on time too
	timer := time.NewTimer(time.Until(deadline) + scanBound)
	defer timer.Stop()
	select {
	case <-scanned:
	case <-timer.C:
	}
}

// signalGroups sends each group SIGTERM, SIGHUP and SIGCONT (so a
// stopped job can act on them), and forgets the groups with no member.
func signalGroups(groups map[int]bool) {
	for pgid := range groups {
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGCONT} {
			if errors.Is(syscall.Kill(-pgid, sig), syscall.ESRCH) {
				delete(groups, pgid) // no member left
				break
			}
		}
	}
}

// killGroups SIGKILLs, at deadline, the groups that still have a member.
func killGroups(groups map[int]bool, deadline time.Time) {
	for len(groups) > 0 && time.Now().Before(deadline) {
		time.Sleep(min(groupPoll, time.Until(deadline))) // Polling: a group's end gives no event.
		for pgid := range groups {
			if errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) {
				delete(groups, pgid)
			}
		}
	}
	for pgid := range groups {
		_ = syscall.Kill(-pgid, syscall.SIGKILL) // Best effort: it may have just emptied.
	}
}

// endMarked stops every process whose environment holds needle: SIGTERM,
// then SIGKILL once deadline has passed. What it finds goes into found.
func endMarked(needle []byte, since uint64, deadline time.Time, found *marks) {
	for sig := syscall.SIGTERM; ; {
		pids := marked(needle, since)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			found.signal(pid, sig)
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

// marks are the marked processes the scan found, each held by a pidfd
// where the kernel has them (Linux 5.3): a pid may name another process
// once this one is gone, a pidfd names this one only. So they get their
// SIGKILL on time (killAll), not when a slow scan next finds them.
type marks struct {
	mu  sync.Mutex
	fds map[int]int // pid -> pidfd, or -1: signalled by pid
}

// signal sends sig to pid, which the scan found just now.
func (m *marks) signal(pid int, sig syscall.Signal) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fd, ok := m.fds[pid]
	if !ok {
		fd = -1
		if f, err := unix.PidfdOpen(pid, 0); err == nil {
			fd = f
		} else if errors.Is(err, unix.ESRCH) {
			return // gone since the scan
		}
		m.fds[pid] = fd
	}
	if fd >= 0 {
		_ = unix.PidfdSendSignal(fd, sig, nil, 0) // Best effort: it may have just exited.
		return
	}
	_ = syscall.Kill(pid, sig) // Best effort, as above.
}

// killAll SIGKILLs every process found, through its pidfd.
func (m *marks) killAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, fd := range m.fds {
		if fd >= 0 {
			_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) // Best effort: it may have exited.
		}
	}
}

func (m *marks) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for pid, fd := range m.fds {
		if fd >= 0 {
			_ = unix.Close(fd)
		}
		delete(m.fds, pid)
	}
}

// marked lists live processes (not this one), started at clock tick since
// or later, whose environment has needle.
func marked(needle []byte, since uint64) []int {
	self := os.Getpid()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || pid == self {
			continue
		}
		// The stat first: it takes no lock of the process's memory.
		st, err := os.ReadFile(d + "/stat")
		if err != nil || zombie(st) || startTick(st) < since {
			continue // gone, exited but not reaped, or older than yume-cli
		}
		env, err := os.ReadFile(d + "/environ")
		if err != nil || !bytes.Contains(env, needle) {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// startOf is process pid's start, in clock ticks since boot (0 when it
// cannot be read: then every process is looked at).
func startOf(pid int) uint64 {
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	return startTick(st)
}

// startTick reads the start time (field 22) of a stat line; 0 when it
// cannot.
func startTick(stat []byte) uint64 {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	// After the command name (which may hold spaces and parentheses):
	// field 3 (state) onwards, so field 22 is the 20th.
	f := bytes.Fields(stat[i+1:])
	if len(f) < 20 {
		return 0
	}
	t, _ := strconv.ParseUint(string(f[19]), 10, 64)
	return t
}

package ptyhost

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// AdoptOrphans makes this process the reaper of its descendants' orphans
// (PR_SET_CHILD_SUBREAPER): a daemon a provider detaches on purpose
// (Codex's app-server) is re-parented to us instead of to PID 1, so
// EndOrphans can stop it and no zombie is left for a PID 1 that does not
// reap. Call it once, early in main: it changes the whole process.
func AdoptOrphans() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// EndOrphans stops the processes adopted since AdoptOrphans that still run:
// SIGTERM, then SIGKILL after grace, reaping each. Call it last, when every
// child yume-cli started itself has been waited for: it reaps any child.
// It returns how many processes it ended.
func EndOrphans(grace time.Duration) int {
	WatchdogUp() // its PID is no orphan's
	ended := map[int]bool{}
	deadline := time.Now().Add(grace)
	killed := false
	for {
		reapAny()
		kids := childPIDs()
		if len(kids) == 0 {
			return len(ended)
		}
		sig := syscall.SIGTERM
		if time.Now().After(deadline) {
			if killed {
				return len(ended) // unkillable (D state): give up rather than hang
			}
			sig, killed, deadline = syscall.SIGKILL, true, time.Now().Add(grace)
		}
		for _, pid := range kids {
			if !ended[pid] || sig == syscall.SIGKILL {
				_ = syscall.Kill(pid, sig) // Best effort: it may have just exited.
				ended[pid] = true
			}
		}
		time.Sleep(10 * time.Millisecond) // Polling: orphans give no event to wait on.
	}
}

// reapAny collects every child that has exited.
func reapAny() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}

// childPIDs lists this process's live children: from each thread's
// /proc children list where the kernel keeps one (a few reads), else from
// every process's stat (a read per process on the machine: tens of
// milliseconds on a busy one, at every exit).
func childPIDs() []int {
	if kids, ok := childrenLists(); ok {
		return kids
	}
	return scanChildren()
}

// childrenLists reads /proc/self/task/*/children (CONFIG_PROC_CHILDREN);
// false where there is none. One small read a file, no stat of each
// (procFile, threads).
func childrenLists() ([]int, bool) {
	var buf [16 << 10]byte
	var stat [512]byte
	all, ok := childrenOf(os.Getpid(), buf[:])
	if !ok {
		return nil, false // no children lists in this kernel
	}
	var kids []int
	for _, pid := range all {
		if pid == watchdogPID { // it ends by itself when we exit
			continue
		}
		if zombie(procFile("/proc/"+strconv.Itoa(pid)+"/stat", stat[:])) {
			continue // exited, not reaped yet
		}
		kids = append(kids, pid)
	}
	return kids, true
}

// zombie reports a stat line of a process that exited.
func zombie(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || bytes.HasPrefix(bytes.TrimLeft(stat[i+1:], " "), []byte("Z"))
}

// scanChildren lists this process's live children from every process's stat.
func scanChildren() []int {
	self := os.Getpid()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []int
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// Fields after the command name (which may hold spaces): state ppid …
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) < 2 || f[0] == "Z" {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid == self {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			if pid != watchdogPID { // it ends by itself when we exit
				kids = append(kids, pid)
			}
		}
	}
	return kids
}

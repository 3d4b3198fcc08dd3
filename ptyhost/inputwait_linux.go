//go:build linux && (amd64 || arm64)

package ptyhost

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// InputWait reads /proc for the processes of the terminal's foreground
// process group (its leader and the leader's descendants in the group, as
// a shell's job is), thread by thread: their states, and the system call
// each is blocked in (its number, and its first argument: the file
// descriptor). A thread blocked reading this terminal means the screen is
// a question (Go programs read in a thread of their own); one on a CPU
// means the program is still working. It costs a few small file reads.
func (p *Process) InputWait() InputState {
	pgid, err := p.foreground()
	if err != nil || pgid <= 0 {
		return InputUnknown
	}
	var seen [InputRunning + 1]bool
	queue := []int{pgid}
	for n := 0; len(queue) > 0 && n < maxGroupWalk; n++ {
		pid := queue[0]
		queue = queue[1:]
		if !inGroup(pid, pgid) {
			continue // a background job: not the one the screen is for
		}
		for _, tid := range threads(pid) {
			seen[p.threadInput(pid, tid)] = true
		}
		queue = append(queue, children(pid)...)
	}
	for _, s := range []InputState{InputReading, InputRunning, InputBusy, InputPolling} {
		if seen[s] {
			return s
		}
	}
	return InputUnknown
}

// maxGroupWalk bounds the processes looked at.
const maxGroupWalk = 64

// inGroup reports whether pid is in process group pgid.
func inGroup(pid, pgid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// Fields after the command name: state ppid pgrp …
	f := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
	g := 0
	if len(f) >= 3 {
		g, _ = strconv.Atoi(string(f[2]))
	}
	return g == pgid
}

// threads lists pid's threads (at least pid itself).
func threads(pid int) []int {
	ents, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		return []int{pid}
	}
	out := make([]int, 0, len(ents))
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// threadInput is what one thread waits for. A thread parked on a futex
// (an idle runtime thread) or waiting for a child says nothing: Unknown.
func (p *Process) threadInput(pid, tid int) InputState {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(tid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return InputUnknown
	}
	f := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
	if len(f) == 0 {
		return InputUnknown
	}
	switch f[0][0] {
	case 'R':
		return InputRunning
	case 'Z', 'X', 'T', 't':
		return InputUnknown
	}
	sc, err := os.ReadFile(dir + "/syscall")
	if err != nil {
		return InputUnknown
	}
	fs := strings.Fields(string(sc))
	if len(fs) < 2 {
		return InputRunning // "running"
	}
	nr, err := strconv.Atoi(fs[0])
	if err != nil {
		return InputUnknown
	}
	switch syscallKinds[nr] {
	case InputReading:
		arg, _ := strconv.ParseInt(strings.TrimPrefix(fs[1], "0x"), 16, 64)
		if link, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + strconv.FormatInt(arg, 10)); err == nil && link == p.tty {
			return InputReading
		}
		return InputBusy // reading a pipe or a file: working
	case InputPolling:
		return InputPolling
	case InputUnknown:
		if nr == waitSyscall || nr == futexSyscall {
			return InputUnknown
		}
	}
	return InputBusy
}

// children lists pid's children (Linux 3.5+; empty where not available).
func children(pid int) []int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// foreground is the terminal's foreground process group. Asked through
// the poller's descriptor, so the master stays non-blocking.
func (p *Process) foreground() (int, error) {
	rc, err := p.master.SyscallConn()
	if err != nil {
		return 0, err
	}
	pgid := 0
	cerr := rc.Control(func(fd uintptr) {
		pgid, err = unix.IoctlGetInt(int(fd), unix.TIOCGPGRP)
	})
	if cerr != nil {
		return 0, cerr
	}
	return pgid, err
}

// Unread is how many bytes the program printed that are not read yet.
func (p *Process) Unread() int {
	rc, err := p.master.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	_ = rc.Control(func(fd uintptr) {
		n, _ = unix.IoctlGetInt(int(fd), unix.TIOCINQ)
	})
	return n
}

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
// means the program is still working. It costs a few small file reads,
// each one open, read and close (procFile), and it ends at the first
// thread found reading: a question's tool_use waits on this look.
func (p *Process) InputWait() InputState {
	var seen [InputRunning + 1]bool
	var buf [512]byte
	reading := false
	if !p.walkGroup(func(pid int, _ [][]byte) bool {
		for _, tid := range p.procs.threadsOf(pid) {
			st := p.threadInput(pid, tid, buf[:])
			if st == InputReading {
				reading = true // what every other thread does cannot change the answer
				return false
			}
			seen[st] = true
		}
		return true
	}) {
		return InputUnknown
	}
	if reading {
		return InputReading
	}
	for _, s := range []InputState{InputRunning, InputBusy, InputPolling} {
		if seen[s] {
			return s
		}
	}
	return InputUnknown
}

// walkGroup visits the processes of the terminal's foreground process
// group: its leader, then the leader's descendants still in the group (a
// shell's job; a background job is not the one the screen is for), at
// most maxGroupWalk, each with its stat fields (statFields: valid until
// visit returns). visit returns false to stop the walk; walkGroup returns
// false where there is no group to walk.
func (p *Process) walkGroup(visit func(pid int, stat [][]byte) bool) bool {
	pgid, err := p.foreground()
	if err != nil || pgid <= 0 {
		return false
	}
	var buf [512]byte
	queue := []int{pgid}
	for n := 0; len(queue) > 0 && n < maxGroupWalk; n++ {
		pid := queue[0]
		queue = queue[1:]
		f := statText(p.procs.read(pid, procKey{pid, procStat}, buf[:]))
		if len(f) < 3 || string(f[2]) != strconv.Itoa(pgid) {
			continue // gone, or in another group
		}
		if !visit(pid, f) {
			return true
		}
		queue = append(queue, p.children(pid)...)
	}
	return true
}

// maxGroupWalk bounds the processes looked at.
const maxGroupWalk = 64

// threadInput is what one thread waits for. A thread parked on a futex
// (an idle runtime thread) or waiting for a child says nothing: Unknown.
func (p *Process) threadInput(pid, tid int, buf []byte) InputState {
	sched := p.procs.read(pid, procKey{tid, procSchedstat}, buf)
	if st, ok := p.memo.get(tid, sched); ok {
		return st // it has not run since it was found so
	}
	counters := string(sched)
	st := p.threadState(pid, tid, buf)
	p.memo.put(tid, counters, st)
	return st
}

// threadState is how thread tid of process pid waits, from its stat, its
// system call and, for a read, the descriptor's link.
func (p *Process) threadState(pid, tid int, buf []byte) InputState {
	f := statText(p.procs.read(pid, procKey{tid, procTaskStat}, buf))
	if len(f) == 0 || len(f[0]) == 0 {
		return InputUnknown
	}
	switch f[0][0] {
	case 'R':
		return InputRunning
	case 'Z', 'X', 'T', 't':
		return InputUnknown
	}
	sc := p.procs.read(pid, procKey{tid, procSyscall}, buf)
	if sc == nil {
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
func (p *Process) children(pid int) []int {
	var buf [4096]byte
	b := p.procs.read(pid, procKey{pid, procChildren}, buf[:])
	if len(b) == len(buf) {
		b = b[:bytes.LastIndexByte(b, ' ')+1] // the last pid may be cut: the walk is bounded anyway
	}
	var out []int
	for _, f := range bytes.Fields(b) {
		if n, err := strconv.Atoi(string(f)); err == nil {
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

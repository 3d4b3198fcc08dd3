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
// a shell's job is): their states, and the system call each is blocked in
// (its number, and its first argument: the file descriptor). One of them
// blocked reading this terminal means the screen is a question; one
// running means the program is busy. It costs a few small file reads.
func (p *Process) InputWait() InputState {
	pgid, err := p.foreground()
	if err != nil || pgid <= 0 {
		return InputUnknown
	}
	state, polling := InputUnknown, false
	queue := []int{pgid}
	for n := 0; len(queue) > 0 && n < maxGroupWalk; n++ {
		pid := queue[0]
		queue = queue[1:]
		switch s := p.processInput(pid, pgid); s {
		case InputReading:
			return InputReading
		case InputPolling:
			polling = true
		case InputBusy:
			state = InputBusy
		}
		queue = append(queue, children(pid)...)
	}
	if polling && state != InputBusy {
		return InputPolling
	}
	return state
}

// maxGroupWalk bounds the processes looked at.
const maxGroupWalk = 64

// processInput is what one process of group pgid waits for; processes of
// other groups (a background job) do not count: InputUnknown.
func (p *Process) processInput(pid, pgid int) InputState {
	dir := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return InputUnknown
	}
	// Fields after the command name: state ppid pgrp …
	f := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
	if len(f) < 3 {
		return InputUnknown
	}
	if g, _ := strconv.Atoi(string(f[2])); g != pgid {
		return InputUnknown
	}
	switch f[0][0] {
	case 'R':
		return InputBusy
	case 'Z', 'X', 'T', 't':
		return InputUnknown
	}
	sc, err := os.ReadFile(dir + "/syscall")
	if err != nil {
		return InputUnknown
	}
	fs := strings.Fields(string(sc))
	if len(fs) < 2 {
		return InputBusy // "running"
	}
	nr, err := strconv.Atoi(fs[0])
	if err != nil {
		return InputUnknown
	}
	switch syscallKinds[nr] {
	case InputReading:
		arg, _ := strconv.ParseInt(strings.TrimPrefix(fs[1], "0x"), 16, 64)
		if link, err := os.Readlink(dir + "/fd/" + strconv.FormatInt(arg, 10)); err == nil && link == p.tty {
			return InputReading
		}
		return InputBusy // reading a pipe or a file: working
	case InputPolling:
		return InputPolling
	}
	// wait4 for a child is not busy by itself: the child says.
	if nr == waitSyscall {
		return InputUnknown
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

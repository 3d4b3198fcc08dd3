//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package ptyhost

import (
	"os"

	"golang.org/x/sys/unix"
)

// own gives the watch a descriptor of its own for out's file, and a pipe
// that wakes it when the GUI is found gone some other way. Without either
// the watch stays unwatched: a failed write still ends the session.
func (g *GUIWatch) own(out *os.File) {
	rc, err := out.SyscallConn()
	if err != nil {
		return
	}
	fd := -1
	if rc.Control(func(d uintptr) { fd, err = unix.FcntlInt(d, unix.F_DUPFD_CLOEXEC, 0) }) != nil || err != nil {
		return // out is closed, or no descriptor is left
	}
	r, w, err := os.Pipe()
	if err != nil {
		unix.Close(fd)
		return
	}
	g.fd, g.wakeR, g.wakeW = fd, r, w
}

// wakeFd is the number the watch waits on to be woken (-1: none).
func (g *GUIWatch) wakeFd() int {
	if g.wakeR == nil {
		return -1
	}
	return int(g.wakeR.Fd())
}

// release lets the watch's descriptors go once it no longer waits on them.
func (g *GUIWatch) release() {
	g.mu.Lock()
	if g.fd >= 0 {
		unix.Close(g.fd)
		g.fd = -1
	}
	g.mu.Unlock()
	if g.wakeR != nil {
		g.wakeR.Close()
	}
}

// readerGone polls the watch's descriptor now, asking for events: whether
// its reader is gone (false once the watch released it).
func (g *GUIWatch) readerGone(events int16) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fd < 0 {
		return false
	}
	fds := []unix.PollFd{{Fd: int32(g.fd), Events: events}}
	n, _ := unix.Poll(fds, 0)
	return n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0
}

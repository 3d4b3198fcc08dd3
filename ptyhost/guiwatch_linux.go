package ptyhost

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux, poll(2) on the write end of a pipe reports POLLERR once its
// reader is gone (a socket or a terminal reports POLLHUP), whatever events
// were asked for; asking for none, the wait lasts until then. The parent's
// exit is a pidfd turning readable (Linux 5.3); without pidfds getppid is
// read every parentPoll.

// watch waits for the GUI to go and records how.
func (g *GUIWatch) watch() {
	defer g.release()
	pidfd := -1
	if g.ppid > 1 {
		if fd, err := unix.PidfdOpen(g.ppid, 0); err == nil {
			pidfd = fd
			defer unix.Close(pidfd)
		}
		// A parent gone before the pidfd was opened may have left its pid
		// to another process: looked at only now, after.
		if g.parentGone() {
			g.Lost(whyParentExited)
			return
		}
	}
	// A negative fd is skipped; the wake pipe turns readable on Lost.
	fds := []unix.PollFd{{Fd: int32(g.fd)}, {Fd: int32(pidfd), Events: unix.POLLIN}, {Fd: int32(g.wakeFd()), Events: unix.POLLIN}}
	timeout := -1
	if pidfd < 0 && g.ppid > 1 {
		timeout = int(parentPoll / time.Millisecond)
	}
	if g.fd < 0 && pidfd < 0 && timeout < 0 {
		return // nothing to watch
	}
	for {
		_, err := unix.Poll(fds, timeout)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return // cannot poll: writes failing still end the session
		}
		if fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0 {
			g.Lost(whyReaderClosed)
			return
		}
		if fds[2].Revents != 0 {
			return // gone, found some other way
		}
		if fds[1].Revents != 0 || g.parentGone() {
			g.Lost(whyParentExited)
			return
		}
	}
}

// look checks now, without waiting.
func (g *GUIWatch) look() string {
	if g.parentGone() {
		return whyParentExited
	}
	if g.readerGone(0) {
		return whyReaderClosed
	}
	return ""
}

//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package ptyhost

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// On macOS and the BSDs one kqueue waits for both: EVFILT_WRITE on stdout
// carries EV_EOF once its reader is gone (pipe or socket), and EVFILT_PROC
// NOTE_EXIT fires when the parent exits. The write filter also fires when
// the reader makes room (edge-triggered with EV_CLEAR: once per read of
// the GUI's, not while stdout stays writable); each wake checks EV_EOF.
// macOS's poll(2) asks nothing of a descriptor polled for no events, so
// poll cannot wait for the reader's end there as it does on Linux.

// watch waits for the GUI to go and records how.
func (g *GUIWatch) watch() {
	defer g.release()
	kq, err := unix.Kqueue()
	if err != nil {
		g.pollParent()
		return
	}
	defer unix.Close(kq)
	var changes []unix.Kevent_t
	if g.fd >= 0 {
		var ev unix.Kevent_t
		unix.SetKevent(&ev, g.fd, unix.EVFILT_WRITE, unix.EV_ADD|unix.EV_CLEAR)
		changes = append(changes, ev)
	}
	parentEvent := false
	if g.ppid > 1 {
		var ev unix.Kevent_t
		unix.SetKevent(&ev, g.ppid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
		ev.Fflags = unix.NOTE_EXIT
		if _, err := unix.Kevent(kq, []unix.Kevent_t{ev}, nil, nil); err == nil {
			parentEvent = true
		}
		// Gone before it was registered (ESRCH), or in between: looked at
		// only now, after.
		if g.parentGone() {
			g.Lost(whyParentExited)
			return
		}
	}
	if len(changes) > 0 {
		if _, err := unix.Kevent(kq, changes, nil, nil); err != nil {
			changes = nil // not a pipe or socket: writes failing still end the session
		}
	}
	if wake := g.wakeFd(); wake >= 0 {
		var ev unix.Kevent_t
		unix.SetKevent(&ev, wake, unix.EVFILT_READ, unix.EV_ADD)
		// Not one of changes: it ends the wait, it watches nothing. Not
		// registered, the watch waits on until its own events.
		_, _ = unix.Kevent(kq, []unix.Kevent_t{ev}, nil, nil)
	}
	var timeout *unix.Timespec
	if g.ppid > 1 && !parentEvent {
		ts := unix.NsecToTimespec(int64(parentPoll / time.Nanosecond))
		timeout = &ts
	}
	if len(changes) == 0 && !parentEvent && timeout == nil {
		return // nothing to watch
	}
	events := make([]unix.Kevent_t, 3)
	for {
		n, err := unix.Kevent(kq, nil, events, timeout)
		if err != nil && !errors.Is(err, unix.EINTR) {
			g.pollParent()
			return
		}
		for _, ev := range events[:max(n, 0)] {
			switch {
			case ev.Filter == unix.EVFILT_WRITE && ev.Flags&unix.EV_EOF != 0:
				g.Lost(whyReaderClosed)
				return
			case ev.Filter == unix.EVFILT_PROC:
				g.Lost(whyParentExited)
				return
			case ev.Filter == unix.EVFILT_READ:
				return // gone, found some other way
			}
		}
		if g.parentGone() {
			g.Lost(whyParentExited)
			return
		}
	}
}

// look checks now, without waiting: poll(2) reports POLLHUP for a pipe or
// socket whose reader is gone when asked for POLLOUT.
func (g *GUIWatch) look() string {
	if g.parentGone() {
		return whyParentExited
	}
	if g.readerGone(unix.POLLOUT) {
		return whyReaderClosed
	}
	return ""
}

//go:build unix

package ptyhost

import (
	"fmt"
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openPTY opens a new pseudo-terminal pair. The master comes back in
// non-blocking mode, registered with the Go poller, so Close interrupts a
// blocked Read (creack/pty issues 88 and 114). pty.Open alone does not give
// that: its ioctls call (*os.File).Fd, which switches the file to blocking
// mode for good, so the master is re-made from a close-on-exec duplicate.
func openPTY() (master, tty *os.File, err error) {
	m, t, err := pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("ptyhost: open a pseudo-terminal: %w", err)
	}
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	_ = m.Close() // Best effort; the duplicate keeps the master open.
	if err == nil {
		err = unix.SetNonblock(fd, true)
		if err != nil {
			_ = unix.Close(fd) // Best effort.
		}
	}
	if err != nil {
		_ = t.Close() // Best effort.
		return nil, nil, fmt.Errorf("ptyhost: make the PTY master non-blocking: %w", err)
	}
	// NewFile sees O_NONBLOCK and adds the descriptor to the poller.
	return os.NewFile(uintptr(fd), "/dev/ptmx"), t, nil
}

// setWinsize sets the window size of the terminal f belongs to, through the
// poller's descriptor access so that f stays non-blocking.
func setWinsize(f *os.File, cols, rows int) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return fmt.Errorf("ptyhost: set window size: %w", err)
	}
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	var ioctlErr error
	if err := rc.Control(func(fd uintptr) {
		ioctlErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws)
	}); err != nil {
		return fmt.Errorf("ptyhost: set window size: %w", err)
	}
	if ioctlErr != nil {
		return fmt.Errorf("ptyhost: set window size to %dx%d: %w", cols, rows, ioctlErr)
	}
	return nil
}

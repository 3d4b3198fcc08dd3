package ptyhost

import (
	"os"
	"syscall"
	"unsafe"
)

// readMaster reads the master through the Go poller, but makes the read
// itself a raw system call, which the scheduler is not told of. The
// descriptor is non-blocking, so the call never waits for output; yet a
// PTY read often waits a few microseconds for the kernel's terminal worker
// (n_tty_read flushes it first). Through os.File that wait counts as a
// blocking call: with GOMAXPROCS=1 the runtime's monitor takes the
// processor away from it on every read and wakes every 20 µs to look.
// Under a flood that cost yume-cli 9% more CPU than the raw drain it is
// measured against, taken from the program and the kernel on 2 cores.
func readMaster(f *os.File, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var errno syscall.Errno
	err = rc.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			switch e {
			case syscall.EINTR:
				continue // retried at once: the poller would wait for new output
			case syscall.EAGAIN:
				return false // no output yet: the poller waits for some
			}
			n, errno = int(r), e
			return true
		}
	})
	switch {
	case err != nil: // the poller's only error here: the file was closed
		return 0, os.ErrClosed
	case errno != 0:
		return 0, errno
	}
	return n, nil
}

package ptyhost

import (
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// masterReader reads the master through the Go poller, but makes the read
// itself a raw system call, which the scheduler is not told of. The
// descriptor is non-blocking, so the call never waits for output; yet a
// PTY read often waits a few microseconds for the kernel's terminal worker
// (n_tty_read flushes it first). Through os.File that wait counts as a
// blocking call: with GOMAXPROCS=1 the runtime's monitor takes the
// processor away from it on every read and wakes every 20 µs to look.
// Under a flood that cost yume-cli 9% more CPU than the raw drain it is
// measured against, taken from the program and the kernel on 2 cores.
//
// One goroutine reads (Process's rule): the closure the poller calls and
// its results are made once, so a read allocates nothing.
type masterReader struct {
	rc    syscall.RawConn
	buf   []byte
	n     int
	errno syscall.Errno
	step  func(fd uintptr) bool
	parks atomic.Uint64 // odd while a read waits for output (Parked)
}

func newMasterReader(f *os.File) *masterReader {
	r := &masterReader{}
	r.rc, _ = f.SyscallConn() // fails only for a nil file
	r.step = r.readOnce
	return r
}

// read reads into b; os.ErrClosed once the master was closed.
func (r *masterReader) read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	r.buf, r.n, r.errno = b, 0, 0
	err := r.rc.Read(r.step)
	r.buf = nil
	switch {
	case err != nil: // the poller's only error here: the file was closed
		return 0, os.ErrClosed
	case r.errno != 0:
		return 0, r.errno
	}
	return r.n, nil
}

// readOnce is one raw read(2); false asks the poller to wait for output.
func (r *masterReader) readOnce(fd uintptr) bool {
	if r.parks.Load()%2 == 1 {
		r.parks.Add(1) // before the read: what it returns is not handed back yet
	}
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&r.buf[0])), uintptr(len(r.buf)))
		switch e {
		case syscall.EINTR:
			continue // retried at once: the poller would wait for new output
		case syscall.EAGAIN:
			r.parks.Add(1)
			return false // no output yet: the poller waits for some
		}
		r.n, r.errno = int(n), e
		return true
	}
}

// Parked is odd while the one goroutine that reads waits for output, every
// chunk read before handed back to it, and grows by one as a read starts
// and as one parks: equal values at two times mean nothing was read between.
func (p *Process) Parked() uint64 { return p.rd.parks.Load() }

//go:build unix

package ptyhost

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Process is a child program running in its own session with a
// pseudo-terminal as its controlling terminal. One goroutine may read
// (Read or ReadChunk) while others write, resize, wait or stop it.
type Process struct {
	master *os.File      // PTY master, non-blocking, in the Go poller
	rd     *masterReader // reads the master (read_linux.go)
	cmd    *exec.Cmd     // the child; its pid is also its session and process group id
	start  time.Time     // ReadChunk timestamps are relative to this
	tty    string        // the terminal's name (/dev/pts/N), for InputWait
	buf    []byte        // ReadChunk's buffer, reused for every chunk
	memo   threadMemo    // how InputWait last found each thread (Linux)
	procs  procFDs       // the /proc files InputWait reads, kept open (Linux)

	// mu is held while signalling the group and while reaping the leader, so
	// a signal to -pid never lands after the leader's pid was freed for reuse.
	mu     sync.Mutex
	reaped bool // under mu

	done    chan struct{} // closed once the leader has been reaped
	status  ExitStatus    // set before done is closed
	waitErr error         // set before done is closed

	stopMu    sync.Mutex // serialises Stop so escalations do not interleave
	closeOnce sync.Once
	closeErr  error
}

// Start runs opts.Argv in a new session whose controlling terminal is a fresh
// PTY of the requested size. The parent keeps only the master side. A program
// that cannot be found gives a *NotFoundError.
func Start(opts Options) (*Process, error) {
	WatchdogUp() // no program runs unwatched
	cols, rows, err := opts.size()
	if err != nil {
		return nil, err
	}
	var name string
	if len(opts.Argv) > 0 {
		name = opts.Argv[0]
	}
	path, err := lookPath(name)
	if err != nil {
		return nil, err
	}
	master, tty, err := openPTY()
	if err != nil {
		return nil, err
	}
	// The slave is the child's now; the parent must not hold it, or the
	// master would never see EIO when the child exits.
	defer func() { _ = tty.Close() }() // Best effort.
	if err := setWinsize(tty, cols, rows); err != nil {
		_ = master.Close() // Best effort.
		return nil, err
	}
	cmd := &exec.Cmd{
		Path:   path,
		Args:   opts.Argv,
		Env:    opts.environ(),
		Dir:    opts.Dir,
		Stdin:  tty,
		Stdout: tty,
		Stderr: tty,
		// A new session makes the child's pid its process group id, so one
		// kill(-pid) reaches every grandchild; Setctty gives it the PTY as
		// controlling terminal (fd 0), so it gets SIGWINCH and job control.
		SysProcAttr: &syscall.SysProcAttr{Setsid: true, Setctty: true},
	}
	if err := cmd.Start(); err != nil {
		_ = master.Close() // Best effort.
		return nil, fmt.Errorf("ptyhost: start %q (in %q): %w", path, dirOrCwd(opts.Dir), err)
	}
	WatchGroup(cmd.Process.Pid) // its session's group: the watchdog ends it if we are killed
	p := &Process{
		master: master,
		rd:     newMasterReader(master),
		cmd:    cmd,
		start:  time.Now(),
		tty:    tty.Name(),
		done:   make(chan struct{}),
	}
	go p.reap()
	return p, nil
}

// Pid returns the child's process id, which is also its process group and
// session id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Started is when the child started: ReadChunk's times count from it, so a
// recording that times its own events from it too keeps one clock.
func (p *Process) Started() time.Time { return p.start }

// Read reads the child's output. When the child and everything that shares
// its terminal have exited, Read first returns all output still buffered and
// then io.EOF (Linux reports that as EIO). After Close it returns io.EOF.
func (p *Process) Read(b []byte) (int, error) {
	n, err := p.rd.read(b)
	if err == nil && n == 0 && len(b) > 0 {
		err = io.EOF // read(2) of 0 bytes: the terminal is gone
	}
	if err != nil && (errors.Is(err, syscall.EIO) || errors.Is(err, os.ErrClosed)) {
		err = io.EOF
	}
	return n, err
}

// ReadChunk returns the next output with the time since Start. The slice
// aliases an internal buffer and is valid until the next ReadChunk call.
// (A Reader reads a process straight into its ring instead: the buffer is
// made on the first call.)
func (p *Process) ReadChunk() ([]byte, time.Duration, error) {
	if p.buf == nil {
		p.buf = make([]byte, readBufSize)
	}
	for {
		n, err := p.Read(p.buf)
		at := time.Since(p.start)
		if n > 0 {
			return p.buf[:n], at, nil // An error with data comes back on the next call.
		}
		if err != nil {
			return nil, at, err
		}
	}
}

// Write sends keys to the child as if typed.
func (p *Process) Write(b []byte) (int, error) { return p.master.Write(b) }

// Resize changes the window size; the kernel sends SIGWINCH to the child's
// foreground process group.
func (p *Process) Resize(cols, rows int) error {
	if err := checkSize(cols, rows); err != nil {
		return err
	}
	return setWinsize(p.master, cols, rows)
}

// Done returns a channel that is closed once the child has exited and been
// reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait blocks until the child has exited and returns how it ended. Any number
// of goroutines may call it, any number of times; the child is reaped once.
func (p *Process) Wait() (ExitStatus, error) {
	<-p.done
	return p.status, p.waitErr
}

// Close stops the child's process group (Stop with DefaultGrace; at once if
// the child has already exited) and closes the PTY master, which makes a
// blocked Read return io.EOF. Later calls return the first call's result.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		// Stop even when the leader is gone: a grandchild left in its group
		// would otherwise live on in a terminal nobody reads.
		stopErr := p.Stop(DefaultGrace)
		closeErr := p.master.Close()
		p.procs.close()
		if closeErr != nil {
			closeErr = fmt.Errorf("ptyhost: close the PTY master: %w", closeErr)
		}
		p.closeErr = errors.Join(stopErr, closeErr)
	})
	return p.closeErr
}

// reap waits for the leader to exit and records its status. Where the OS
// lets us see the exit without reaping (waitExited), the reaping itself is
// done under mu so that signalGroup never races the pid being freed.
func (p *Process) reap() {
	var err error
	if waitExited(p.Pid()) {
		p.mu.Lock()
		err = p.cmd.Wait() // Returns at once: the child is a zombie.
	} else {
		err = p.cmd.Wait()
		p.mu.Lock()
	}
	p.reaped = true
	p.mu.Unlock()
	p.status, p.waitErr = exitStatus(p.cmd.ProcessState, err)
	close(p.done)
}

// exitStatus turns what exec.Cmd.Wait returned into an ExitStatus; a
// non-zero exit or a signal is a status, not an error.
func exitStatus(ps *os.ProcessState, err error) (ExitStatus, error) {
	var exitErr *exec.ExitError
	if ps == nil || (err != nil && !errors.As(err, &exitErr)) {
		return ExitStatus{Code: -1}, fmt.Errorf("ptyhost: wait for the child: %w", err)
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ExitStatus{Code: -1, Signal: signalName(ws.Signal())}, nil
	}
	return ExitStatus{Code: ps.ExitCode()}, nil
}

// signalName is a signal's name as people write it ("SIGSEGV"), or its
// number for one without a name.
func signalName(sig syscall.Signal) string {
	if name := unix.SignalName(sig); name != "" {
		return name
	}
	return fmt.Sprintf("signal %d", int(sig))
}

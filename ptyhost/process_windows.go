//go:build windows

package ptyhost

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Exit codes a Windows program ends with that the Unix path reports as
// signals, so that callers (the driver's "it quit as asked", record's exit
// status) read one vocabulary on both.
const (
	// statusControlCExit is STATUS_CONTROL_C_EXIT: how a console program
	// ends on Ctrl-C when it does not handle it, reported as SIGINT.
	statusControlCExit = 0xC000013A
	// stoppedExitCode is what Stop's TerminateJobObject gives every
	// process of the job (128+9, as shells report a SIGKILL), reported as
	// SIGKILL when Stop did it.
	stoppedExitCode = 137
)

// drainQuiet is how long the console's output must be still, once the
// last process of the job has exited, before the output ends: conhost
// draws the program's last output a moment after it was written.
const drainQuiet = 100 * time.Millisecond

// Process is a child program attached to a pseudo-console of its own, in
// a job object of its own. One goroutine may read (Read or ReadChunk)
// while others write, resize, wait or stop it.
type Process struct {
	pipes *consolePipes
	ctrlC *os.File // under Wine, where Write sends Ctrl-C (to the console shim)
	con   *console
	job   *job
	proc  windows.Handle // the child (under Wine, the console shim)
	pid   int
	start time.Time
	buf   []byte // ReadChunk's buffer, reused for every chunk

	lastOut atomic.Int64 // when output was last read, in ns since start

	done     chan struct{} // closed once the child has exited
	status   ExitStatus    // set before done is closed
	waitErr  error         // set before done is closed
	closing  chan struct{} // closed when Close begins
	drained  chan struct{} // closed when drain returns
	stopping atomic.Bool   // Stop terminated the job

	stopMu    sync.Mutex
	closeOnce sync.Once
	closeErr  error
}

// Start runs opts.Argv attached to a new pseudo-console of the requested
// size, in a job object that ends it and everything it starts when Stop
// or Close says so, or when yume-cli exits. A program that cannot be
// found gives a *NotFoundError. Under Wine the program runs through the
// console shim (shim_windows.go).
func Start(opts Options) (*Process, error) {
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
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // Dir must not change which program runs
	}
	app, line, err := commandLine(path, opts.Argv)
	if err != nil {
		return nil, err
	}
	env := opts.environ()
	if !underWine() {
		return startConsole(path, app, line, env, opts.Dir, cols, rows, nil)
	}
	ctrlC, err := newCtrlCPipe()
	if err != nil {
		return nil, err
	}
	defer ctrlC.closeShimEnd() // the shim has its own copy by then
	if app, line, env, err = shimmed(app, line, env, ctrlC.r); err == nil {
		var p *Process
		if p, err = startConsole(path, app, line, env, opts.Dir, cols, rows, ctrlC); err == nil {
			return p, nil
		}
	}
	_ = ctrlC.w.Close() // Best effort.
	return nil, err
}

// startConsole starts app with the command line line on a new console in
// a new job; ctrlC, when set, is the console shim's Ctrl-C pipe (its read
// end inherited by the shim, its write end the Process's from then on).
func startConsole(path, app, line string, env []string, dir string, cols, rows int, ctrlC *ctrlCPipe) (*Process, error) {
	block, err := envBlock(env)
	if err != nil {
		return nil, err
	}
	pipes, err := newConsolePipes()
	if err != nil {
		return nil, err
	}
	con, err := newConsole(pipes, cols, rows)
	pipes.closeTheirs() // conhost holds its own copies now
	if err != nil {
		pipes.close()
		return nil, err
	}
	j, err := newJob()
	if err != nil {
		pipes.close() // ours first: ClosePseudoConsole then waits for no reader
		con.close()
		return nil, err
	}
	var inherit []windows.Handle
	if ctrlC != nil {
		inherit = []windows.Handle{ctrlC.r}
	}
	undo := func() {
		_ = j.close() // Best effort.
		pipes.close() // ours first: ClosePseudoConsole then waits for no reader
		con.close()
	}
	pi, err := createProcess(con, app, line, block, dir, inherit)
	if err != nil {
		undo()
		return nil, fmt.Errorf("ptyhost: start \"%s\" (in \"%s\"): %w", path, dirOrCwd(dir), err)
	}
	defer windows.CloseHandle(pi.Thread)
	if err := j.assign(pi.Process); err != nil {
		_ = windows.TerminateProcess(pi.Process, 1) // Best effort: it never ran.
		_ = windows.CloseHandle(pi.Process)
		undo()
		return nil, err
	}
	p := &Process{pipes: pipes, con: con, job: j, proc: pi.Process, pid: int(pi.ProcessId), ctrlC: ctrlCWriter(ctrlC),
		start: time.Now(), buf: make([]byte, readBufSize),
		done: make(chan struct{}), closing: make(chan struct{}), drained: make(chan struct{})}
	go p.reap()
	go p.drain()
	if _, err := windows.ResumeThread(pi.Thread); err != nil {
		_ = j.terminate(1) // Best effort: it never ran.
		p.ctrlC = nil      // the caller closes it
		_ = p.Close()
		return nil, fmt.Errorf("ptyhost: start \"%s\": resume it: %w", path, err)
	}
	return p, nil
}

// ctrlCWriter is the shim's Ctrl-C pipe to write, if any.
func ctrlCWriter(c *ctrlCPipe) *os.File {
	if c == nil {
		return nil
	}
	return c.w
}

// createProcess starts app with the command line line, suspended, attached
// to the console. Its standard handles are left empty
// (STARTF_USESTDHANDLES with none), so that it does not inherit yume-cli's
// (pipes to the GUI): Windows gives such a console program the console's.
// It inherits the inheritable handles in inherit, and no other.
func createProcess(con *console, app, line string, env *uint16, dir string, inherit []windows.Handle) (*windows.ProcessInformation, error) {
	al, err := con.attrList(inherit)
	if err != nil {
		return nil, err
	}
	defer al.Delete()
	app16, err := windows.UTF16PtrFromString(app)
	if err != nil {
		return nil, err
	}
	line16, err := windows.UTF16PtrFromString(line)
	if err != nil {
		return nil, err
	}
	var dir16 *uint16
	if dir != "" {
		if dir16, err = windows.UTF16PtrFromString(dir); err != nil {
			return nil, err
		}
	}
	si := &windows.StartupInfoEx{}
	si.Cb = uint32(unsafe.Sizeof(*si))
	si.Flags = windows.STARTF_USESTDHANDLES
	si.ProcThreadAttributeList = al.List()
	pi := &windows.ProcessInformation{}
	flags := uint32(windows.CREATE_UNICODE_ENVIRONMENT | windows.EXTENDED_STARTUPINFO_PRESENT | windows.CREATE_SUSPENDED)
	if err := windows.CreateProcess(app16, line16, nil, nil, len(inherit) > 0, flags, env, dir16, &si.StartupInfo, pi); err != nil {
		return nil, err
	}
	return pi, nil
}

// Pid returns the child's process id (under Wine, the console shim's).
func (p *Process) Pid() int { return p.pid }

// Started is when the child started: ReadChunk's times count from it.
func (p *Process) Started() time.Time { return p.start }

// Read reads the console's output. Once the last process of the job has
// exited, Read returns what the console still draws, then io.EOF. After
// Close it returns io.EOF.
func (p *Process) Read(b []byte) (int, error) {
	n, err := p.pipes.out.Read(b)
	if n > 0 {
		p.lastOut.Store(int64(time.Since(p.start)))
	}
	if err != nil && (errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) ||
		errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_OPERATION_ABORTED) ||
		errors.Is(err, windows.ERROR_PIPE_NOT_CONNECTED) || errors.Is(err, windows.ERROR_NO_DATA)) {
		err = io.EOF
	}
	return n, err
}

// ReadChunk returns the next output with the time since Start. The slice
// aliases an internal buffer and is valid until the next ReadChunk call.
func (p *Process) ReadChunk() ([]byte, time.Duration, error) {
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

// Write types keys into the console: conhost reads VT key sequences
// ("\r" Enter, "\x1b[A" Up, "\x03" Ctrl-C) and gives the program the
// console key events they stand for. Under Wine each Ctrl-C goes to the
// console shim instead, which types it as a key event (shim_windows.go).
func (p *Process) Write(b []byte) (int, error) {
	if p.ctrlC == nil {
		return p.pipes.in.Write(b)
	}
	n := 0
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0x03)
		if i < 0 {
			m, err := p.pipes.in.Write(b)
			return n + m, err
		}
		if i > 0 {
			m, err := p.pipes.in.Write(b[:i])
			if n += m; err != nil {
				return n, err
			}
		}
		if _, err := p.ctrlC.Write(b[i : i+1]); err != nil {
			return n, err
		}
		n, b = n+1, b[i+1:]
	}
	return n, nil
}

// Resize changes the console's size; the program gets a window resize
// event (Wine 8 does not implement it: E_NOTIMPL).
func (p *Process) Resize(cols, rows int) error {
	if err := checkSize(cols, rows); err != nil {
		return err
	}
	return p.con.resize(cols, rows)
}

// Done returns a channel that is closed once the child has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait blocks until the child has exited and returns how it ended. Any
// number of goroutines may call it, any number of times.
func (p *Process) Wait() (ExitStatus, error) {
	<-p.done
	return p.status, p.waitErr
}

// Stop ends the program and everything it started: Ctrl-C typed into its
// console, then, if the child has not exited within grace, the job
// terminated. Whatever is left of the job once the child has exited is
// terminated at once. Stop returns when the child has exited; on an exited
// child it returns at once.
func (p *Process) Stop(grace time.Duration) error {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()
	var err error
	select {
	case <-p.done:
	default:
		// Typed from a goroutine: a program that reads no keys must not
		// hold Stop past its grace (conhost reads them regardless, but
		// a full pipe would block the write).
		go func() { _, _ = p.Write([]byte{0x03}) }() // Best effort: the job ends it anyway.
		timer := time.NewTimer(grace)
		select {
		case <-p.done:
		case <-timer.C:
			p.stopping.Store(true)
			if err = p.job.terminate(stoppedExitCode); err != nil {
				// The child at least, so that Stop returns.
				_ = windows.TerminateProcess(p.proc, stoppedExitCode) // Best effort: err says what failed.
			}
			<-p.done
		}
		timer.Stop()
	}
	select {
	case <-p.job.empty:
	default:
		// Leftovers of a job whose child is gone; once empty, the console
		// closes and Read ends.
		_ = p.job.terminate(stoppedExitCode) // Best effort: they may be exiting.
	}
	return err
}

// Close stops the program (Stop with DefaultGrace; at once if it has
// exited), closes the console and the pipes, which makes a blocked Read
// return io.EOF, and closes the job. Later calls return the first
// call's result.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		stopErr := p.Stop(DefaultGrace)
		close(p.closing)
		// Our end of the output first: conhost's last writes then fail
		// at once, instead of ClosePseudoConsole waiting for a reader.
		_ = p.pipes.out.Close() // Best effort.
		<-p.drained
		p.con.close()
		p.pipes.close()
		if p.ctrlC != nil {
			_ = p.ctrlC.Close() // Best effort.
		}
		jobErr := p.job.close()
		<-p.done
		_ = windows.CloseHandle(p.proc) // Best effort.
		p.closeErr = errors.Join(stopErr, jobErr)
	})
	return p.closeErr
}

// reap waits for the child to exit and records its status.
func (p *Process) reap() {
	defer close(p.done)
	if _, err := windows.WaitForSingleObject(p.proc, windows.INFINITE); err != nil {
		p.status, p.waitErr = ExitStatus{Code: -1}, fmt.Errorf("ptyhost: wait for the child: %w", err)
		return
	}
	var code uint32
	if err := windows.GetExitCodeProcess(p.proc, &code); err != nil {
		p.status, p.waitErr = ExitStatus{Code: -1}, fmt.Errorf("ptyhost: the child's exit code: %w", err)
		return
	}
	p.status = exitStatusOf(code, p.stopping.Load())
}

// exitStatusOf reads an exit code: STATUS_CONTROL_C_EXIT as SIGINT, and
// stoppedExitCode as SIGKILL when Stop terminated the job.
func exitStatusOf(code uint32, stopped bool) ExitStatus {
	switch {
	case code == statusControlCExit:
		return ExitStatus{Code: -1, Signal: "SIGINT"}
	case code == stoppedExitCode && stopped:
		return ExitStatus{Code: -1, Signal: "SIGKILL"}
	}
	return ExitStatus{Code: int(code)}
}

// drain ends the output once the job is empty and the console has drawn
// what its programs wrote: no output for drainQuiet, and none waiting in
// the pipe. Read then returns io.EOF, as a PTY master's read does once no
// process holds the terminal. It closes our ends of the pipes before the
// console: conhost has nothing left to draw, and it then exits at once
// (ClosePseudoConsole waits for it; under Wine, a conhost that still had
// the input pipe to read kept the output open for a second more).
func (p *Process) drain() {
	defer close(p.drained)
	select {
	case <-p.job.empty:
	case <-p.closing:
		return // Close closes the console
	}
	timer := time.NewTimer(drainQuiet)
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
		case <-p.closing:
			return
		}
		quiet := time.Since(p.start) - time.Duration(p.lastOut.Load())
		if quiet >= drainQuiet && p.pipes.unread() == 0 {
			break
		}
		timer.Reset(max(drainQuiet-quiet, drainQuiet/4))
	}
	_ = p.pipes.out.Close() // Best effort: Read returns io.EOF from now on.
	_ = p.pipes.in.Close()  // Best effort.
	p.con.close()
}

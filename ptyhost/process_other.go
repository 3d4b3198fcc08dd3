//go:build !unix && !windows

package ptyhost

import (
	"errors"
	"runtime"
	"time"
)

// errUnsupported is every answer on an OS with neither Unix
// pseudo-terminals nor ConPTY (Windows has process_windows.go).
// errors.Is(err, errors.ErrUnsupported) is true of it.
var errUnsupported error = unsupportedError{}

type unsupportedError struct{}

func (unsupportedError) Error() string {
	return "the PTY path (driving a program's interactive screen) is unavailable on " + runtime.GOOS +
		", which has neither Unix pseudo-terminals nor ConPTY: use --mode json or --mode acp where the provider has one"
}

func (unsupportedError) Unwrap() error { return errors.ErrUnsupported }

// closedDone is what Done returns here: there is never a child to wait for.
var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Process is a child in a pseudo-terminal; on this OS none can be started.
type Process struct{}

// Start reports that PTY mode is not supported on this OS.
func Start(opts Options) (*Process, error) { return nil, errUnsupported }

// Pid returns -1: there is no child.
func (p *Process) Pid() int { return -1 }

// Started returns the zero time: there is no child.
func (p *Process) Started() time.Time { return time.Time{} }

// Read reports that PTY mode is not supported on this OS.
func (p *Process) Read(b []byte) (int, error) { return 0, errUnsupported }

// ReadChunk reports that PTY mode is not supported on this OS.
func (p *Process) ReadChunk() ([]byte, time.Duration, error) { return nil, 0, errUnsupported }

// Write reports that PTY mode is not supported on this OS.
func (p *Process) Write(b []byte) (int, error) { return 0, errUnsupported }

// Resize reports that PTY mode is not supported on this OS.
func (p *Process) Resize(cols, rows int) error { return errUnsupported }

// Wait reports that PTY mode is not supported on this OS.
func (p *Process) Wait() (ExitStatus, error) { return ExitStatus{Code: -1}, errUnsupported }

// Done returns a closed channel: there is no child to wait for.
func (p *Process) Done() <-chan struct{} { return closedDone }

// Stop reports that PTY mode is not supported on this OS.
func (p *Process) Stop(grace time.Duration) error { return errUnsupported }

// Close does nothing: there is nothing to release.
func (p *Process) Close() error { return nil }

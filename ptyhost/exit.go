package ptyhost

import (
	"errors"
	"time"
)

// The end of a program and the end of its terminal are two events. A
// program may close its terminal and keep running, or exit while another
// process holds the terminal open; waiting for the second after the first
// would wait forever, so each bounds the wait for the other.
const (
	// HeldGrace is how long output may go on after the program exited
	// (what it printed last, still in the terminal) before the terminal
	// is taken as held by a leftover process.
	HeldGrace = 500 * time.Millisecond
	// closedGrace is how long a program that closed its terminal has to
	// exit before yume-cli stops it.
	closedGrace = time.Second
)

// ErrTerminalHeld ends the output of a program that exited while another
// process still holds its terminal open.
var ErrTerminalHeld = errors.New("the program exited; a process it left behind still holds the terminal")

// exitNotifier is a Terminal that tells when the program itself has
// exited (a live Process). A replay has no such moment.
type exitNotifier interface{ Done() <-chan struct{} }

// Exited is t's exit channel, or nil (never ready) when it has none.
func Exited(t Terminal) <-chan struct{} {
	if e, ok := As[exitNotifier](t); ok {
		return e.Done()
	}
	return nil
}

// WaitExit returns how the program ended once its output has ended. A
// program that closed its terminal but keeps running is stopped after
// closedGrace (onStop hears of it first); stopped reports that.
func WaitExit(t Terminal, onStop func()) (st ExitStatus, stopped bool, err error) {
	if exited := Exited(t); exited != nil {
		timer := time.NewTimer(closedGrace)
		select {
		case <-exited:
		case <-timer.C:
			onStop()
			_ = t.Close() // Best effort: Wait below reports how it ended.
			stopped = true
		}
		timer.Stop()
	}
	st, err = t.Wait()
	return st, stopped, err
}

// stopper is a Terminal whose process group can be stopped with a grace
// of the caller's choosing (a live Process).
type stopper interface {
	Stop(grace time.Duration) error
}

// EndSoon ends t's program for a session that must end now (its GUI went
// away): the program has wait to exit by itself (after its quit keys),
// then its process group gets SIGTERM and SIGHUP, and SIGKILL after
// grace; then t is closed. A terminal with no live program behind it (a
// recording) is only closed.
func EndSoon(t Terminal, wait, grace time.Duration) error {
	if exited := Exited(t); exited != nil && wait > 0 {
		timer := time.NewTimer(wait)
		select {
		case <-exited:
		case <-timer.C:
		}
		timer.Stop()
	}
	var err error
	if s, ok := As[stopper](t); ok {
		err = s.Stop(grace)
	}
	return errors.Join(err, t.Close())
}

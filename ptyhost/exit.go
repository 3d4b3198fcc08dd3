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

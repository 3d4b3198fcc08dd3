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
	// heldGrace is how long output may go on after the program exited
	// (what it printed last, still in the terminal) before the terminal
	// is taken as held by a leftover process.
	heldGrace = 500 * time.Millisecond
	// closedGrace is how long a program that closed its terminal has to
	// exit before yume-cli stops it.
	closedGrace = time.Second
)

// errTerminalHeld ends the output of a program that exited while another
// process still holds its terminal open.
var errTerminalHeld = errors.New("the program exited; a process it left behind still holds the terminal")

// exitNotifier is a Terminal that tells when the program itself has
// exited (a live Process). A replay has no such moment.
type exitNotifier interface{ Done() <-chan struct{} }

// exitedChan is t's exit channel, or nil (never ready) when it has none.
func exitedChan(t Terminal) <-chan struct{} {
	if e, ok := as[exitNotifier](t); ok {
		return e.Done()
	}
	return nil
}

// waitExit returns how the program ended once its output has ended. A
// program that closed its terminal but keeps running is stopped after
// closedGrace; stopped reports that.
func (d *driver) waitExit() (st ExitStatus, stopped bool, err error) {
	if exited := exitedChan(d.cfg.Term); exited != nil {
		t := time.NewTimer(closedGrace)
		select {
		case <-exited:
		case <-t.C:
			d.tr.state("the program closed its terminal and kept running: stopping it")
			_ = d.cfg.Term.Close() // Best effort: Wait below reports how it ended.
			stopped = true
		}
		t.Stop()
	}
	st, err = d.cfg.Term.Wait()
	return st, stopped, err
}

package ptyhost

import (
	"fmt"
	"time"

	"github.com/yume-cli/yume-cli/internal/unwrap"
)

// Terminal is the child the driver drives: a live program in a PTY, or a
// recording played back on a virtual clock. Both satisfy it, so tests replay
// recordings through exactly the production driver.
type Terminal interface {
	// ReadChunk blocks for the next bytes the child printed and returns them
	// with the time since the session started (wall time for a live child,
	// the recorded time for a replay). It returns io.EOF when output ends.
	ReadChunk() (data []byte, at time.Duration, err error)
	// Write sends keys (or terminal-query replies) to the child.
	Write(p []byte) (int, error)
	// Resize changes the window size the child sees.
	Resize(cols, rows int) error
	// Wait returns how the child ended; call it after ReadChunk gave io.EOF.
	Wait() (ExitStatus, error)
	// Close stops the child (its whole process group) and releases it.
	Close() error
}

// Wrapper is a Terminal that adds to another (a recording tee, the key
// writer). The driver finds the optional abilities of the terminal under
// it (Done, InputWait, Unread, Mark) through Unwrap, so a wrapper never
// hides them: one that did once turned off, under --record, the check that
// settles the screen of a program waiting for keys.
type Wrapper interface {
	Unwrap() Terminal
}

// As returns the first terminal in t's chain of wrappers that is a T.
func As[T any](t Terminal) (T, bool) { return unwrap.As[T](t) }

// All is every terminal in t's chain of wrappers that is a T, outermost
// first.
func All[T any](t Terminal) []T { return unwrap.All[T](t) }

// Marker is a Terminal that hears of each question the driver asks
// ("question N: …") and each model error it first sees ("model error
// (where): …"): a recording keeps them as chapter marks, a guessed start
// (yume-cli) times its probe by the questions. The driver marks every
// Marker in the chain.
type Marker interface {
	Mark(label string)
}

// ExitStatus is how a child ended: an exit code, or the signal that killed it.
type ExitStatus struct {
	Code   int    // exit code; -1 when killed by a signal or unknown
	Signal string // the signal's name ("SIGSEGV"); empty when it exited
	Why    string // why the status is unknown (Code -1, no Signal)
}

// String says how the program ended, for people: "the program exited
// with status 1", "the program was killed by SIGSEGV".
func (s ExitStatus) String() string {
	switch {
	case s.Signal != "":
		return "the program was killed by " + s.Signal
	case s.Why != "":
		return "how the program ended is unknown: " + s.Why
	}
	return fmt.Sprintf("the program exited with status %d", s.Code)
}

// Success reports a zero exit code.
func (s ExitStatus) Success() bool { return s.Code == 0 && s.Signal == "" && s.Why == "" }

package ptyhost

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
)

// PermissionMode says who decides whether a command runs.
type PermissionMode string

// The permission modes of PROTOCOL.md.
const (
	ModeDefault     PermissionMode = "default"     // ask the GUI; no channel means deny
	ModeInteractive PermissionMode = "interactive" // same as default
	ModeAuto        PermissionMode = "auto"        // approve, and say so
	ModeDeny        PermissionMode = "deny"        // deny, and say so
)

// DriverConfig wires a terminal to the heuristics and the emitter.
type DriverConfig struct {
	Term    Terminal
	Profile *heuristics.Profile
	Out     *emit.Writer
	// Controls carries the GUI's frames; nil means there is no control
	// channel, so questions are denied in default mode. A closed channel
	// (stdin EOF) denies what is pending and anything asked later.
	Controls <-chan emit.Control
	Mode     PermissionMode
	// Decide answers approvals synchronously instead of Controls (replays:
	// no waiting on a virtual clock). n counts questions from 1.
	Decide func(n int, d *heuristics.Detection) bool
	// Revise, with Decide, answers question n with the rule's revise keys
	// instead when it returns true and the rule has them. The feedback
	// typed at the next input question is then, in a replay, what the
	// recording typed there.
	Revise func(n int, d *heuristics.Detection) bool
	// InterruptAt, in a replay, interrupts the session when the first
	// recorded output at or after this time arrives, as a user's interrupt
	// would; 0 means never. Ignored for a live terminal.
	InterruptAt time.Duration
	// Prompt is the user's prompt, typed where a rule's keys say <Prompt>.
	Prompt string
	// CommandLine is the program's own command, shown as the tool_use
	// command when a question names none (rm -i, git add -p).
	CommandLine string
	Cols, Rows  int
	Quiet       time.Duration // settle period; 0 = the profile's, else 40ms
	Trace       io.Writer     // one JSON line per decision; nil = off
}

// Outcome is how a driven session ended.
type Outcome struct {
	Exit        ExitStatus
	Questions   int
	Denials     int
	Interrupted bool
}

// soon is how long output must pause before rules that wait on the cursor
// (cursor: end) are tried: short enough for a fast tool_use, long enough
// to skip the middle of a burst.
const soon = 2 * time.Millisecond

type chunk struct {
	data []byte
	at   time.Duration
	err  error
}

var chunkPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// Drive runs the session until the program exits or ctx is cancelled, and
// ends the turn with exactly one result. It returns an error only for a
// fault of the driver itself (a key mismatch in a replay, a dead stdout).
func Drive(ctx context.Context, cfg DriverConfig) (Outcome, error) {
	d := newDriver(cfg)
	if !d.live {
		return d.replay(ctx) // lock step with the recording (driver_replay.go)
	}
	defer d.stopTimer()
	chunks := make(chan chunk, 8)
	stopRead := make(chan struct{})
	defer close(stopRead)
	go readChunks(cfg.Term, chunks, stopRead)
	for {
		select {
		case c := <-chunks:
			if !d.live {
				d.advance(c.at)
			}
			if c.err != nil {
				return d.finishExit(c.err)
			}
			d.feed(c)
		case f, ok := <-d.controls:
			d.control(f, ok)
		case <-d.timerC():
			d.timerPending = false
			d.advance(d.now())
		case <-ctx.Done():
			d.interrupt("interrupted: yume-cli received a signal")
		}
		if d.fault != nil || d.ended {
			return d.finishEarly()
		}
	}
}

// readChunks copies the terminal's chunks into pooled buffers for the
// driver goroutine, so reading the PTY overlaps with parsing.
func readChunks(t Terminal, out chan<- chunk, stop <-chan struct{}) {
	for {
		data, at, err := t.ReadChunk()
		var c chunk
		if len(data) > 0 {
			bp := chunkPool.Get().(*[]byte)
			c = chunk{data: append((*bp)[:0], data...), at: at}
		}
		if err != nil {
			if c.data != nil {
				select {
				case out <- c:
				case <-stop:
					return
				}
			}
			c = chunk{at: at, err: err}
		}
		select {
		case out <- c:
		case <-stop:
			return
		}
		if err != nil {
			return
		}
	}
}

func releaseChunk(b []byte) {
	b = b[:0]
	chunkPool.Put(&b)
}

// describeExit is the error text for a program that did not succeed.
func describeExit(s ExitStatus) string {
	if s.Signal != "" {
		return fmt.Sprintf("the program was %s", s.Signal)
	}
	return fmt.Sprintf("the program exited with status %d", s.Code)
}

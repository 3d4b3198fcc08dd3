package driver

import (
	"fmt"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
)

// Quitting: a program that stays open after its turn (a TUI) is closed
// with the profile's quit keys once the turn is done.

// quitTries bounds how often the quit keys are typed: once, then again on
// every settled screen while the program lingers ("press Ctrl-C again to
// exit"). Retyping on settled screens, not on a timer, keeps a replay in
// step with the recording. quitGrace is how long a live program may take
// to exit after the first try before its process group is stopped.
const (
	quitTries = 4
	quitGrace = 5 * time.Second
)

// quitRule names the quit keys in traces and replay reports.
var quitRule = &heuristics.Rule{Name: "quit"}

// quit types the profile's quit keys. From the first try a live program
// has quitGrace to exit: a screen that never settles (an animation) gets
// no retries, and must not keep the session open.
func (d *driver) quit() {
	if d.quits == 0 {
		d.to(stateQuitting, "the turn is done")
	}
	d.quits++
	d.tr.state(fmt.Sprintf("turn done: typing the quit keys (try %d of %d)", d.quits, quitTries))
	d.send(quitRule, "quit", d.cfg.Profile.Quit)
	if d.quits == 1 {
		d.at[timerQuit] = d.now() + quitGrace
	}
}

// quitTimer fires when the program did not exit within quitGrace.
func (d *driver) quitTimer() {
	d.tr.state("the program did not exit after its quit keys: stopping it")
	d.quitStopped = true
	_ = d.cfg.Term.Close() // Best effort: EOF on the PTY ends the session.
}

// quitKeys are the bytes the profile's quit keys type ("" where none).
func (d *driver) quitKeys() []byte {
	b, _ := d.cfg.Profile.Quit.Encode(nil)
	return b
}

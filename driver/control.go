package driver

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// control acts on one frame from the GUI; ok is false once stdin ended.
func (d *driver) control(f emit.Control, ok bool) {
	if !ok {
		d.policy.CloseChannel()
		d.tr.state("control channel closed")
		if d.st == stateAwaiting {
			d.decideNow(d.t.pending) // nobody can answer: the policy does
		}
		if d.st == stateBetween {
			d.quit() // a persistent session ends with stdin
		}
		d.checkUnasked() // a question only the GUI could answer now has nobody
		return
	}
	d.tr.control(f)
	switch f.Kind {
	case emit.ControlApproval:
		id := f.ToolUseID
		if id == "" && f.RequestID != "" {
			id, _ = d.out.ToolUseForRequest(f.RequestID)
		}
		if how, ok := d.settled[id]; ok && (d.st != stateAwaiting || d.t.pending.id != id) {
			d.emitErr(d.out.Notice(fmt.Sprintf("the answer for %s comes after it was decided (%s); nothing changes", id, how)))
			return
		}
		if d.st != stateAwaiting || d.t.pending.id != id {
			waits := "none is waiting"
			if d.st == stateAwaiting {
				waits = fmt.Sprintf("the one waiting is %q", d.t.pending.id)
			}
			d.emitErr(d.out.SystemError(fmt.Sprintf("no tool_use is waiting for approval with id %q (request %q): %s", f.ToolUseID, f.RequestID, waits)))
			return
		}
		d.answer(d.t.pending, f.Answer())
	case emit.ControlInterrupt:
		switch {
		case d.st == stateBetween:
			d.emitErr(d.out.SystemError("interrupt: no turn is running (the last one has its result); nothing to stop"))
		case d.cfg.Persistent && !d.cfg.Profile.Interrupt.IsZero() && d.inTurn():
			d.interruptTurn("interrupted by the user")
		default:
			d.interrupt("interrupted by the user")
		}
	case emit.ControlSetMode:
		d.emitErr(d.out.Notice(d.policy.SetMode(f.Mode)))
		if d.st == stateAwaiting { // the new mode decides the waiting question
			d.decideNow(d.t.pending)
		}
	case emit.ControlUser:
		if d.cfg.Persistent {
			if d.st != stateBetween {
				d.emitErr(d.out.SystemError(fmt.Sprintf("user: a turn is running (%s); send the next prompt after its result", d.st)))
				return
			}
			d.startTurn(f.Text)
			return
		}
		if d.st == stateAwaiting {
			d.emitErr(d.out.SystemError("a question is waiting for approval; answer it before sending a new prompt"))
			return
		}
		if d.t.queued != "" {
			d.emitErr(d.out.SystemError("a prompt is already waiting for the program to be ready; send the next one after it"))
			return
		}
		d.t.queued = f.Text
		d.typePrompt()
	}
}

// interrupt stops the program and ends the turn as interrupted.
func (d *driver) interrupt(reason string) { d.abort(reason, true) }

// abort stops the program and ends the turn with an error: interrupted
// (an interrupt line first), or failed.
func (d *driver) abort(reason string, interrupted bool) {
	if d.st == stateEnded {
		return
	}
	if d.st == stateBetween && d.out.TurnEnded() {
		// No turn is running to end: say why the session stops.
		d.emitErr(d.out.SystemError(reason))
		d.stopProgram()
		d.to(stateEnded, reason)
		return
	}
	d.outcome.Interrupted = interrupted
	d.outcome.Failed = !interrupted
	d.dropQuestion("the turn ended")
	if c := d.finishCapture(nil); c != nil {
		note := "\n[interrupted]"
		if !interrupted {
			note = "\n[the turn ended before the command did]"
		}
		d.emitErr(d.out.ToolResult(c.id, c.text()+note, true))
	}
	d.stopProgram()
	if interrupted {
		d.emitErr(d.out.Interrupt())
	}
	d.lastTokens()
	d.emitErr(d.out.Result(d.withUsage(emit.Result{IsError: true, Text: reason, Errors: []string{reason}})))
	d.to(stateEnded, reason)
}

// finishExit ends the session after the program's output ended.
func (d *driver) finishExit(readErr error) (Outcome, error) {
	switch {
	case errors.Is(readErr, ptyhost.ErrTerminalHeld):
		d.tr.state(readErr.Error())
	case !errors.Is(readErr, io.EOF):
		d.tr.state("reading the terminal failed: " + readErr.Error())
	}
	d.at[timerSoon], d.at[timerQuiet] = 0, 0
	d.evaluate(true) // the last screen may hold text, a final question, a failure
	if d.cfg.Persistent && d.out.TurnEnded() && d.st != stateEnded {
		// Every turn has its result: the program's end is the session's.
		st, _, _ := d.waitExit()
		d.outcome.Exit = st
		d.to(stateEnded, "program ended between turns: "+st.String())
		return d.outcome, d.fault
	}
	if d.st == stateEnded {
		st, _, _ := d.waitExit()
		d.outcome.Exit = st
		return d.outcome, d.fault
	}
	d.dropQuestion("the program exited before a decision was made")
	d.endCapture(nil)
	st, stopped, err := d.waitExit()
	if err != nil {
		st = ptyhost.ExitStatus{Code: -1, Why: err.Error()}
	}
	d.outcome.Exit = st
	if d.fault != nil {
		return d.outcome, d.fault
	}
	d.lastTokens()
	r := d.withUsage(emit.Result{Text: d.t.lastText})
	// A turn that was over, left with Ctrl-C as its quit keys, may die of
	// the SIGINT they raise: the way it was asked to go, not a failure.
	// (or exit with status 130, 128+SIGINT, as Node and Bun programs do
	// when a Ctrl-C lands after their own exit began: Kilo). So may one
	// that would not go and was stopped: its turn was complete.
	byInterrupt := st.Signal == "SIGINT" || st.Code == 130
	quitAsAsked := d.st == stateQuitting && byInterrupt && bytes.Contains(d.quitKeys(), []byte{0x03})
	switch {
	case d.st == stateQuitting && d.quitStopped && !quitAsAsked:
		d.emitErr(d.out.Notice("yume-cli: the turn was over, but the program did not exit after its quit keys; yume-cli stopped it (" + st.String() + ")"))
		quitAsAsked = true
	case d.st == stateQuitting && d.quits > 0 && !quitAsAsked && st.Code == 1 && st.Signal == "" && bytes.Contains(d.quitKeys(), []byte{0x03}):
		// Some programs exit 1 on the Ctrl-C that quits them (Cline 3.0.65):
		// the turn was complete, and it went as it was asked to.
		d.emitErr(d.out.Notice("yume-cli: the turn was over; " + st.String() + " after its quit keys (Ctrl-C)"))
		quitAsAsked = true
	}
	d.outcome.QuitAsAsked = quitAsAsked
	if !st.Success() && !quitAsAsked {
		r.IsError = true
		r.Errors = []string{st.String()}
	}
	d.modelErrorAtExit(&r)
	if r.IsError && r.Text == "" && !stopped && d.outcome.Questions == 0 {
		// It failed before it asked anything: why, in the program's words
		// (startfail.go). One that asked and was answered ended as its
		// answer had it, which its tool_result already shows.
		d.failedExit(&r, st)
	}
	if stopped {
		why := "the program closed its terminal but kept running; yume-cli stopped it (" + st.String() + ")"
		r.IsError, r.Errors = true, []string{why}
		if d.t.lastText == "" {
			r.Text = why
		}
		d.emitErr(d.out.SystemError(why))
	} else if errors.Is(readErr, ptyhost.ErrTerminalHeld) {
		d.emitErr(d.out.Notice(ptyhost.ErrTerminalHeld.Error() + "; yume-cli ends it"))
	}
	if r.Text == "" {
		r.Text = st.String()
	}
	d.to(stateEnded, "program ended: "+st.String())
	return d.outcome, d.out.Result(r)
}

// finishEarly returns after an interrupt or a driver fault.
func (d *driver) finishEarly() (Outcome, error) {
	if d.st != stateEnded {
		d.stopProgram()
	}
	return d.outcome, d.fault
}

// waitExit returns how the program ended once its output has ended.
func (d *driver) waitExit() (ptyhost.ExitStatus, bool, error) {
	return ptyhost.WaitExit(d.cfg.Term, func() {
		d.tr.state("the program closed its terminal and kept running: stopping it")
	})
}

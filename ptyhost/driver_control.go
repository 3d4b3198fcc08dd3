package ptyhost

import (
	"errors"
	"fmt"
	"io"

	"github.com/yume-cli/yume-cli/emit"
)

// control acts on one frame from the GUI; ok is false once stdin ended.
func (d *driver) control(f emit.Control, ok bool) {
	if !ok {
		d.controls = nil
		d.noChan = true
		d.tr.state("control channel closed")
		if p := d.pending; p != nil {
			d.deny(p, "Denied: stdin closed before a decision (no approval channel).")
		}
		return
	}
	d.tr.control(f)
	switch f.Kind {
	case emit.ControlApproval:
		id := f.ToolUseID
		if id == "" && f.RequestID != "" {
			id, _ = d.out.ToolUseForRequest(f.RequestID)
		}
		p := d.pending
		if p == nil || p.id != id {
			d.emitErr(d.out.SystemError(fmt.Sprintf("no tool_use is waiting for approval with id %q (request %q)", f.ToolUseID, f.RequestID)))
			return
		}
		if f.Approved {
			d.approve(p)
			return
		}
		if f.Revise != "" && !p.det.Rule.Revise.IsZero() {
			d.revise(p, f.Revise)
			return
		}
		msg := f.Message
		if msg == "" {
			msg = "The user denied this command."
		}
		d.deny(p, msg)
	case emit.ControlInterrupt:
		d.interrupt("interrupted by the user")
	case emit.ControlSetMode:
		d.mode = PermissionMode(f.Mode)
		d.emitErr(d.out.Notice("permission mode is now " + string(f.Mode)))
		if p := d.pending; p != nil {
			switch d.mode {
			case ModeAuto:
				d.approve(p)
			case ModeDeny:
				d.deny(p, "Denied: the permission mode is deny.")
			}
		}
	case emit.ControlUser:
		if d.pending != nil {
			d.emitErr(d.out.SystemError("a question is waiting for approval; answer it before sending a new prompt"))
			return
		}
		if d.queued != "" {
			d.emitErr(d.out.SystemError("a prompt is already waiting for the program to be ready; send the next one after it"))
			return
		}
		d.queued = f.Text
		d.typePrompt()
	}
}

// interrupt stops the program and ends the turn as interrupted.
func (d *driver) interrupt(reason string) {
	if d.ended {
		return
	}
	d.outcome.Interrupted = true
	if d.pending != nil {
		d.supersede("interrupted")
	}
	if c := d.finishCapture(nil); c != nil {
		d.emitErr(d.out.ToolResult(c.id, c.text()+"\n[interrupted]", true))
	}
	_ = d.cfg.Term.Close() // Best effort: stops the whole process group.
	d.emitErr(d.out.Interrupt())
	d.emitErr(d.out.Result(emit.Result{IsError: true, Text: reason, Errors: []string{reason}}))
	d.ended = true
}

// finishExit ends the session after the program's output ended.
func (d *driver) finishExit(readErr error) (Outcome, error) {
	if !errors.Is(readErr, io.EOF) {
		d.tr.state("reading the terminal failed: " + readErr.Error())
	}
	d.soonAt, d.quietAt = 0, 0
	d.evaluate(true) // the last screen may hold text or a final question
	if d.pending != nil {
		d.supersede("the program exited before a decision was made")
	}
	d.endCapture(nil)
	st, err := d.cfg.Term.Wait()
	if err != nil {
		st = ExitStatus{Code: -1, Signal: err.Error()}
	}
	d.outcome.Exit = st
	if d.fault != nil {
		return d.outcome, d.fault
	}
	r := emit.Result{Text: d.lastText}
	if !st.Success() {
		r.IsError = true
		r.Errors = []string{describeExit(st)}
	}
	if r.Text == "" {
		r.Text = describeExit(st)
	}
	d.tr.state("program ended: " + describeExit(st))
	d.ended = true
	return d.outcome, d.out.Result(r)
}

// finishEarly returns after an interrupt or a driver fault.
func (d *driver) finishEarly() (Outcome, error) {
	if !d.ended {
		_ = d.cfg.Term.Close() // Best effort.
	}
	return d.outcome, d.fault
}

package ptyhost

import (
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
)

// Persistent sessions (DriverConfig.Persistent): the program stays open
// between turns. Each user frame is a turn: its prompt is typed into the
// program's input box once the profile's ready screen shows, and the turn
// ends with its result where a one-turn session would quit. Between turns
// (stateBetween) only yume-cli's own input rules and fail rules act; a
// frame that needs a running turn gets a system error and changes
// nothing. stdin's end quits the program and ends the session.

// betweenTurns ends the running turn with its result and leaves the
// program open for the next prompt.
func (d *driver) betweenTurns(why string) {
	d.tr.state("the turn is done (" + why + "); the program stays open for the next prompt")
	d.emitErr(d.out.Result(emit.Result{Text: d.lastText}))
	d.rememberAnswer(d.lastText)
	d.resetTurn()
	d.to(stateBetween, why)
	if !d.policy.Channel() {
		d.quit() // stdin ended: no prompt will come
	}
}

// resetTurn forgets what belonged to the turn that ended.
func (d *driver) resetTurn() {
	d.lastText, d.deniedLast, d.decided, d.approved = "", false, false, false
	d.suggestion, d.revision, d.revising = "", "", false
	d.idleAt, d.turnAt, d.stallAt = 0, 0, 0
	d.rec.turnEnd, d.rec.prompted, d.rec.waiting = false, false, nil
	d.lastInput, d.answered, d.inputRetries = nil, nil, 0
}

// startTurn begins the turn of a user frame: the prompt waits for the
// input box, and the turn's clock runs from now.
func (d *driver) startTurn(text string) {
	d.out.NewTurn()
	if d.cfg.OnTurn != nil {
		d.cfg.OnTurn(text)
	}
	d.queued, d.typed = text, text
	d.to(stateIdle, "a new turn: its prompt is typed when the program's input box is ready")
	d.turnAt = d.now() + d.cfg.TurnTimeout
	d.typePrompt()
}

// interruptTurn stops a persistent session's running turn with the
// profile's interrupt keys and keeps the program open.
func (d *driver) interruptTurn(reason string) {
	d.outcome.Interrupted = true
	if d.st == stateAwaiting {
		d.supersede("the turn was interrupted")
	}
	if c := d.finishCapture(nil); c != nil {
		d.emitErr(d.out.ToolResult(c.id, c.text()+"\n[interrupted]", true))
	}
	d.queued, d.enterAt = "", 0
	d.send(&heuristics.Rule{Name: "interrupt"}, "interrupt", d.cfg.Profile.Interrupt)
	d.emitErr(d.out.Interrupt())
	d.emitErr(d.out.Result(emit.Result{IsError: true, Text: reason, Errors: []string{reason}}))
	d.resetTurn()
	d.to(stateBetween, reason)
	if !d.policy.Channel() {
		d.quit()
	}
}

// inTurn reports whether a turn is running (not between turns of a
// persistent session, not over).
func (d *driver) inTurn() bool {
	return d.st == stateIdle || d.st == stateAwaiting || d.st == stateCapturing
}

// pasteText is a prompt as the keys that type it, and only as text
// (heuristics.TextOnly: no control character, so no Enter, Ctrl-C, Esc or
// end-of-paste marker). Line breaks stay inside a bracketed paste, where
// they are text; without one a line break would submit, so TextOnly makes
// it a space.
func pasteText(text string, bracketed bool) []byte {
	if !bracketed {
		return []byte(heuristics.TextOnly(text))
	}
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), "\n")
	for i, l := range lines {
		lines[i] = heuristics.TextOnly(l)
	}
	return []byte("\x1b[200~" + strings.Join(lines, "\n") + "\x1b[201~")
}

package driver

import (
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
)

// Persistent sessions (Config.Persistent): the program stays open
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
	d.lastTokens()
	d.emitErr(d.out.Result(d.withUsage(emit.Result{Text: d.t.lastText})))
	d.rememberAnswer(d.t.lastText)
	d.to(stateBetween, why)
	d.nextTurn()
	if !d.policy.Channel() {
		d.quit() // stdin ended: no prompt will come
	}
}

// startTurn begins the turn of a user frame: the prompt waits for the
// input box, and the turn's clock runs from now.
func (d *driver) startTurn(text string) {
	d.out.NewTurn()
	if d.cfg.OnTurn != nil {
		d.cfg.OnTurn(text)
	}
	d.t.prompt, d.t.queued = text, text
	d.to(stateIdle, "a new turn: its prompt is typed when the program's input box is ready")
	d.at[timerTurn] = d.now() + d.cfg.TurnTimeout
	d.typePrompt()
}

// interruptTurn stops a persistent session's running turn with the
// profile's interrupt keys and keeps the program open.
func (d *driver) interruptTurn(reason string) {
	d.outcome.Interrupted = true
	d.dropQuestion("the turn was interrupted")
	if c := d.finishCapture(nil); c != nil {
		d.emitErr(d.out.ToolResult(c.id, c.text()+"\n[interrupted]", true))
	}
	d.send(interruptRule, "interrupt", d.cfg.Profile.Interrupt)
	d.emitErr(d.out.Interrupt())
	d.emitErr(d.out.Result(d.withUsage(emit.Result{IsError: true, Text: reason, Errors: []string{reason}})))
	d.to(stateBetween, reason)
	d.nextTurn()
	if !d.policy.Channel() {
		d.quit()
	}
}

// interruptRule names the interrupt keys in traces.
var interruptRule = &heuristics.Rule{Name: "interrupt"}

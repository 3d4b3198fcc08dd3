package driver

import (
	"fmt"
	"strings"

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

// Text from the GUI or a flag (a prompt, a persistent turn's user frame,
// a revision) reaches the program through typeText: heuristics.TypeText,
// the one typing function, with the program's bracketed-paste mode and
// the profile's newline. What typing changed is traced; removed control
// characters are reported once per text through OnNote (stderr with
// --verbose), and lines joined with spaces in a notice to the GUI, since
// the program then gets a different prompt than the user wrote.

// typeText is text as the keys that type it now; why names the text in
// reports ("user prompt").
func (d *driver) typeText(why, text string) []byte {
	t := heuristics.TypeText(text, d.screen.BracketedPaste(), d.cfg.Profile.LineBreak())
	d.reportTyped(why, t)
	return t.Keys
}

// promptKeys is an input rule's keys with <Prompt> standing for text (the
// prompt, or a revision's feedback), typed as typeText types it.
func (d *driver) promptKeys(k heuristics.Keys, text string) heuristics.Keys {
	if !k.NeedsPrompt() {
		return k
	}
	t := heuristics.TypeText(text, d.screen.BracketedPaste(), d.cfg.Profile.LineBreak())
	d.reportTyped("input text", t)
	return k.WithTyped(t)
}

// reportTyped says what typing a text changed.
func (d *driver) reportTyped(why string, t heuristics.Typed) {
	if t.Removed == 0 && t.Joined == 0 {
		return
	}
	var what []string
	if t.Removed > 0 {
		what = append(what, fmt.Sprintf("%d control character(s) or paste marker(s) removed", t.Removed))
		if d.cfg.OnNote != nil {
			d.cfg.OnNote(fmt.Sprintf("removed %d control character(s) or paste marker(s) from the %s: it is typed as text, never as keys", t.Removed, why))
		}
	}
	if t.Joined > 0 {
		what = append(what, fmt.Sprintf("%d line break(s) typed as spaces", t.Joined))
		d.emitErr(d.out.Notice(fmt.Sprintf("the %s's %d line break(s) were typed as spaces: the program has bracketed paste off, and profile %s names no newline key (newline:)",
			why, t.Joined, d.cfg.Profile.Name)))
	}
	d.tr.state("typing the " + why + ": " + strings.Join(what, "; "))
}

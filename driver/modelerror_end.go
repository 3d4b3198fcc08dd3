package driver

import (
	"fmt"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/transcript"
)

// checkModelError looks for a model error on a settled screen (the rows
// after this turn's prompt, not the turn's own answer) and ends the turn
// when the program gave up on one.
func (d *driver) checkModelError() {
	m := d.errorsOf()
	if d.st != stateIdle || !d.t.begun {
		return
	}
	d.progressed(m)
	d.lookForModelError()
	if m.err == nil || d.st != stateIdle {
		return
	}
	screen := d.screen.String()
	busy := d.busyNow(screen)
	atRest := d.cfg.Profile.Ready != nil && d.cfg.Profile.Ready.MatchString(screen) && !busy
	switch {
	case m.final && !busy:
		d.endOnModelError("the program logged the error and stopped", "")
	case atRest && m.shownAt == d.screen.Generation():
		d.endOnModelError("the program is back at its input box with the error shown", "")
	}
}

// errorPoll is how often the running turn's screen is read for a model
// error whatever its state, when it changed: a CLI that retries draws a
// spinner, so its screen may not settle until it gives up. A quarter
// second keeps the GUI's news of a retry close to the program's own (a
// second let a loaded machine's opencode be told of 2.2 s after its 429).
const errorPoll = 250 * time.Millisecond

// modelErrorTimer polls the running turn: a model error on screen (told
// the GUI), and the ends: the program gave up (it logged the error, or
// its screen stood still with the error on it for the idle timeout), the
// bound passed, or the turn stayed silent too long (silentTimer).
func (d *driver) modelErrorTimer() {
	m := d.errorsOf()
	d.progressed(m)
	if !d.inTurn() {
		return // the next turn's part arms the poll again
	}
	d.at[timerError] = d.now() + errorPoll
	if d.st != stateIdle || !d.t.begun {
		return
	}
	if gen := d.screen.Generation(); gen != m.lookedGen {
		m.lookedGen = gen
		d.lookForModelError()
	}
	if m.err == nil {
		d.silentTimer(m)
		return
	}
	screen := d.screen.String()
	busy := d.busyNow(screen)
	if gen := d.screen.Generation(); gen != m.stillGen {
		m.stillGen, m.stillAt = gen, d.now()
	}
	switch {
	case m.final && !busy:
		d.endOnModelError("the program logged the error and stopped", "")
	case m.sure && d.now() >= m.since+d.errorBound():
		said := fmt.Sprintf("%s still retried %v after the first error, without an answer; yume-cli stopped it", d.cfg.Profile.Name, d.errorBound())
		d.endOnModelError("retried past the bound", said)
	case !busy && m.shownAt == m.stillGen && d.now()-m.stillAt >= d.cfg.IdleTimeout:
		d.endOnModelError(fmt.Sprintf("the program shows the error and nothing changed for %v", d.cfg.IdleTimeout), "")
	}
}

// modelErrorMessage is the turn's error in the program's words and what
// to do; "" when no error stands (none, or the model answered after it).
func (d *driver) modelErrorMessage() string {
	m := d.errorsOf()
	d.progressed(m)
	if m.err == nil {
		return ""
	}
	return fmt.Sprintf("%s: the model's service failed the request: %q. %s",
		d.cfg.Profile.Name, m.err.Describe(), m.err.Todo())
}

// endOnModelError ends the turn with the model error (failTurn), said in
// a system error Yume shows (its error result shows only "error during
// execution"): what happened — said, when yume-cli stopped the program,
// then the program's words — and what to do.
func (d *driver) endOnModelError(why, said string) {
	msg := d.modelErrorMessage()
	if msg == "" {
		return
	}
	if said != "" {
		msg = said + ". " + msg
	}
	d.tr.state("the turn ends on the model error: " + why)
	d.emitErr(d.out.SystemError(msg))
	d.failTurn(msg, why)
}

// failTurn ends the turn with an error result saying msg: a one-turn
// session stops the program (exit status 1); a persistent one keeps it
// open for the next prompt.
func (d *driver) failTurn(msg, why string) {
	if !d.cfg.Persistent {
		d.abort(msg, false)
		return
	}
	d.outcome.Failed = true
	if !d.cfg.Profile.Interrupt.IsZero() && d.busyNow(d.screen.String()) {
		d.send(interruptRule, "interrupt", d.cfg.Profile.Interrupt) // it still retries: stop that
	}
	d.endCapture(nil)
	d.dropQuestion("the turn ended on a model error")
	d.lastTokens()
	d.emitErr(d.out.Result(d.withUsage(emit.Result{IsError: true, Text: msg, Errors: []string{msg}})))
	d.to(stateBetween, why)
	d.nextTurn()
	if !d.policy.Channel() {
		d.quit()
	}
}

// modelErrorEndsTurn is turnDone's question: does a model error with no
// answer after it end this turn (reported so; true) rather than a done?
func (d *driver) modelErrorEndsTurn(why string) bool {
	if d.st == stateEnded || d.st == stateBetween || d.modelErrorMessage() == "" {
		return false
	}
	d.endOnModelError(why+", after a model error and no answer", "")
	return true
}

// modelErrorAtExit turns the result of a program that exited after a
// model error with no answer into that error, whatever its exit status.
func (d *driver) modelErrorAtExit(r *emit.Result) {
	msg := d.modelErrorMessage()
	if msg == "" {
		return
	}
	d.outcome.Failed = true
	d.emitErr(d.out.SystemError(msg))
	r.IsError, r.Text, r.Errors = true, msg, []string{msg}
}

// logModelError takes an error from the program's transcript.
func (d *driver) logModelError(e transcript.Event) {
	d.sawModelError(errorOf(e.Text), "transcript")
}

// silentTimer stops a turn that has shown only work in progress for
// silentFactor times the bound, with nothing produced since it began.
func (d *driver) silentTimer(m *modelErrors) {
	if d.progressNow() != m.start || !d.t.begun {
		return // the turn produced something: no silent retries
	}
	bound := silentFactor * d.errorBound()
	start := m.begun
	if d.cfg.Transcript != nil {
		// A program that keeps a transcript and has not begun its session
		// there has not taken its prompt (Kilo beside a loaded machine:
		// its session began 22 s after launch, with its spinner up all
		// along): the silence counts from the session's start, and a
		// program that never begins one is given stallFactor bounds.
		switch {
		case !d.logBegun():
			start = m.begun + (stallFactor-1)*bound
		case m.logSince == 0:
			m.logSince = d.now()
			fallthrough
		default:
			start = max(start, m.logSince)
		}
	}
	if d.now() < start+bound {
		return
	}
	if !d.busyNow(d.screen.String()) {
		return // not working: the idle and stall rules judge this screen
	}
	why := fmt.Sprintf("%s worked for %v with no answer, no tool call and no word of progress on screen or in its transcript; "+
		"yume-cli stopped it. A CLI that retries a failing model service silently looks like this (Gemini CLI does so on "+
		"HTTP 429 and 500): check the service's status and the key's quota, then try again", d.cfg.Profile.Name, bound)
	d.emitErr(d.out.SystemError("yume-cli: " + why))
	d.failTurn(why, "no progress for "+bound.String())
}

package driver

import (
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/heuristics"
)

// Bounded time: no state waits forever on the program. A program back at
// its ready input box, not busy, with nothing ending the turn, ends it
// after IdleTimeout (a second after a denial, which stops its turn); every
// turn ends after TurnTimeout. Waiting for the GUI's answer is not the
// program's stall: the turn timeout waits while a question is open.

// checkIdle starts the idle clock on a settled screen at rest (again on
// each settled screen that differs from the one it started on), once the
// turn has begun: a prompt typed and not submitted yet, or still being
// typed by the person in a replay, is no idle program.
func (d *driver) checkIdle() {
	p, t := d.cfg.Profile, d.t
	if d.st != stateIdle || !t.begun || t.queued != "" || p.Ready == nil || t.log.waiting != nil {
		return
	}
	if d.at[timerIdle] != 0 && t.idleGen == d.screen.Generation() {
		return // running, on this very screen
	}
	if rec := d.src.recording(); rec != nil && rec.inputToCome() {
		return // the person has yet to type what this turn is about
	}
	screen := d.screen.String()
	if !p.Ready.MatchString(screen) || p.Busy != nil && p.Busy.MatchString(screen) {
		return
	}
	wait := d.cfg.IdleTimeout
	if t.verdict == denied {
		wait = min(wait, denialIdle)
	}
	d.at[timerIdle], t.idleGen = d.now()+wait, d.screen.Generation()
}

// idleEnd ends a turn the program left at rest, if the screen has not
// changed since the idle clock started (a change starts it again on the
// next settled screen).
func (d *driver) idleEnd() {
	if d.st != stateIdle || d.screen.Generation() != d.t.idleGen {
		return
	}
	d.pollLog()
	if d.st != stateIdle {
		return // the session log ended the turn
	}
	why := "denied, and the program stopped its turn"
	if d.t.verdict != denied {
		why = fmt.Sprintf("the program is back at its input box and nothing ended the turn for %v", d.cfg.IdleTimeout)
		d.emitErr(d.out.Notice(fmt.Sprintf("yume-cli: %s (profile %s, state %s); the turn ends here", why, d.cfg.Profile.Name, d.st)))
	}
	d.turnDone(nil, why)
}

// stallFactor times IdleTimeout is how long a logged call may wait on a
// screen no rule reads before the turn ends: the program asks something
// no rule knows, and nobody can answer it.
const stallFactor = 3

// checkStall starts the stall clock when the session log says a call waits,
// the screen is settled and is neither the ready input box nor busy, and
// no question was recognised.
func (d *driver) checkStall() {
	p := d.cfg.Profile
	if d.st != stateIdle || d.at[timerStall] != 0 || d.t.log.waiting != nil || !d.logFound() || d.pendingCall() == nil {
		return
	}
	screen := d.screen.String()
	if p.Ready != nil && p.Ready.MatchString(screen) || p.Busy != nil && p.Busy.MatchString(screen) {
		return
	}
	d.at[timerStall], d.t.stallGen = d.now()+stallFactor*d.cfg.IdleTimeout, d.screen.Generation()
}

// stalled ends a turn stuck on a question no rule knows.
func (d *driver) stalled() {
	if d.st != stateIdle || d.screen.Generation() != d.t.stallGen || d.pendingCall() == nil {
		return
	}
	screen := strings.TrimRight(d.screen.String(), "\n ")
	d.emitErr(d.out.SystemError(fmt.Sprintf("yume-cli: %s waits on something no rule of profile %s recognises, with a tool call pending; "+
		"the turn ends here (add a rule with --rules; the screen is in --trace). The last screen:\n%s", d.cfg.Profile.Name, d.cfg.Profile.Name, screen)))
	d.interrupt("the program asked something yume-cli cannot answer")
}

// turnTimeout ends a turn that ran too long, unless it waits for the GUI.
func (d *driver) turnTimeout() {
	if d.st == stateAwaiting {
		d.at[timerTurn] = d.now() + d.cfg.TurnTimeout/10 // the person decides; look again later
		return
	}
	screen := strings.TrimRight(d.screen.String(), "\n ")
	d.interrupt(fmt.Sprintf("the turn took longer than %v (profile %s, state %s); the last screen:\n%s",
		d.cfg.TurnTimeout, d.cfg.Profile.Name, d.st, screen))
}

// ctrlC interrupts a command where the profile names no interrupt key.
var ctrlC, _ = heuristics.ParseKeys("<C-c>")

// toolTimeout interrupts a command that ran past ToolTimeout: the
// profile's interrupt keys (Ctrl-C by default) go to the program, the
// tool_result keeps what it printed and says why it is cut, and the turn
// goes on (the program reports the interruption its own way).
func (d *driver) toolTimeout() {
	if d.st != stateCapturing || d.t.capture == nil {
		return
	}
	keys, name := d.cfg.Profile.Interrupt, "the profile's interrupt keys"
	if keys.IsZero() {
		keys, name = ctrlC, "Ctrl-C"
	}
	d.send(&heuristics.Rule{Name: "tool-timeout"}, "tool timeout", keys)
	why := fmt.Sprintf("the command ran longer than --tool-timeout %v; yume-cli interrupted it with %s", d.cfg.ToolTimeout, name)
	d.tr.state(why)
	if c := d.finishCapture(nil); c != nil {
		text := strings.TrimRight(c.text(), "\n")
		if text != "" {
			text += "\n"
		}
		d.emitErr(d.out.ToolResult(c.id, text+"["+why+"]", true))
	}
	d.emitErr(d.out.Notice("yume-cli: " + why))
	d.toIdle("tool timeout")
}

// waitsForUser reports an input question yume-cli has nothing to type
// at (no prompt, or a REPL's next prompt after the one it answered): the
// program waits for the user, so the turn ends after the idle timeout,
// as at a TUI's ready input box.
func (d *driver) waitsForUser(det *heuristics.Detection) {
	if d.t.noticed[det.Key] {
		return
	}
	d.t.noticed[det.Key] = true
	what := det.Prompt
	if what == "" {
		row, _, _ := d.screen.Cursor()
		what = strings.TrimSpace(d.screen.Line(row))
	}
	d.tr.state("input question " + det.Rule.Name + ": nothing to type, the program waits for the user")
	d.emitErr(d.out.Notice(fmt.Sprintf("yume-cli: the program waits for input at %q (rule %s); the turn ends if nothing changes for %v", what, det.Rule.Name, d.cfg.IdleTimeout)))
	if d.st == stateCapturing {
		d.endCapture(det)
		d.toIdle("the program waits for the user")
	}
	d.at[timerIdle], d.t.idleGen = d.now()+d.cfg.IdleTimeout, d.screen.Generation()
}

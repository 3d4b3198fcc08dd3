package driver

import (
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"

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
	if d.cfg.Transcript != nil && !d.logBegun() {
		// The program keeps a log of its session and has not begun it:
		// it was started with the prompt and has not taken it yet, which
		// a loaded machine can make take longer than the idle timeout
		// (Gemini CLI beside three other agents and a CPU hog: its log
		// began 12 s after its input box showed; Kilo beside its twin and
		// a hog showed its input box 5 s before it took its prompt, while
		// its session was still being searched for). An input box it never
		// left is no turn over; a program that never begins is bounded
		// as a still screen is (stallFactor).
		wait = stallFactor * d.cfg.IdleTimeout
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
		return // the transcript ended the turn
	}
	why := "denied, and the program stopped its turn"
	if d.t.verdict != denied {
		why = fmt.Sprintf("the program is back at its input box and nothing ended the turn for %v", d.cfg.IdleTimeout)
		d.emitErr(d.out.Notice(fmt.Sprintf("yume-cli: %s (profile %s, state %s); the turn ends here", why, d.cfg.Profile.Name, d.st)))
	}
	d.turnDone(nil, why)
}

// A screen nothing explains ends the turn: mid-turn (a question is not
// open), the program's screen has not changed for IdleTimeout, and shows
// no work in progress (the profile's busy pattern, or one the generic
// layer knows) and no question anyone can answer. Waiting longer would
// only wait for the turn timeout. It applies where the program is an
// interactive TUI (a profile with an input box, or a screen in the
// alternate buffer or with bracketed paste on), or where the transcript
// says a call waits; a plain program that computes silently is not stuck.

// stallFactor times IdleTimeout is how long a logged call may wait on a
// screen no rule reads: its program may still be drawing the question.
const stallFactor = 3

// genericBusy is work in progress as TUIs show it without a profile
// saying so: a hint to interrupt, or a running/working line with a timer
// or an ellipsis.
var genericBusy = lazyre.New(`(?i)(?:esc|ctrl\+c) to (?:interrupt|stop|cancel the request)|\b(?:running|working|thinking|loading|generating|retrying|waiting for)\b[^\n]*(?:…|\.\.\.|\(\d+ ?s|\d+s\b)`)

// checkStall starts the stall clock on a settled screen that nothing
// explains, again whenever the screen changed since it started.
func (d *driver) checkStall() {
	p, t := d.cfg.Profile, d.t
	if d.st != stateIdle && d.st != stateCapturing || !t.begun || t.log.waiting != nil || t.queued != "" {
		return
	}
	if d.at[timerIdle] != 0 {
		return // the idle clock runs: the program waits for the user, which ends the turn
	}
	gen := d.screen.Generation()
	if d.at[timerStall] != 0 && t.stallGen == gen {
		return // running, on this very screen
	}
	logged := d.logFound() && d.pendingCall() != nil
	if !logged && p.Ready == nil && !d.screen.AltScreen() && !d.screen.BracketedPaste() && !heuristics.InputBox(d.screen) {
		return // a plain program: silent is not stuck
	}
	if rec := d.src.recording(); rec != nil && rec.inputToCome() {
		return // the person has yet to type
	}
	screen := d.screen.String()
	if strings.TrimSpace(screen) == "" || p.Ready != nil && p.Ready.MatchString(screen) ||
		p.Busy != nil && p.Busy.MatchString(screen) || genericBusy.MatchString(screen) {
		d.at[timerStall] = 0 // blank (still starting), at rest, or at work
		return
	}
	wait := d.cfg.IdleTimeout
	if logged {
		wait *= stallFactor
	}
	// A TUI may show its banner a while before its first real screen on
	// a loaded machine: no screen ends a session before stallFactor idle
	// timeouts have passed since it started.
	d.at[timerStall], t.stallGen = max(d.now()+wait, stallFactor*d.cfg.IdleTimeout), gen
	if d.cfg.Transcript != nil && !d.logBegun() {
		t.stallCPU, _ = d.src.cpuTime()
	}
}

// workedSinceStall reports that the program used a CPU since the stall
// clock was set (a look at it now would miss work done in bursts), and
// sets the mark again.
func (d *driver) workedSinceStall() bool {
	now, ok := d.src.cpuTime()
	worked := ok && now > d.t.stallCPU
	d.t.stallCPU = now
	return worked
}

// stalled ends a turn stuck on a screen nothing explains.
func (d *driver) stalled() {
	if d.st != stateIdle && d.st != stateCapturing || d.screen.Generation() != d.t.stallGen {
		return
	}
	if d.cfg.Transcript != nil && !d.logBegun() && d.workedSinceStall() {
		// Still starting: its session not begun, and computing (Codex
		// beside a CPU hog showed its banner 15 s and more before it took
		// its prompt). A still screen of a program at work is no stall;
		// the turn timeout still bounds it.
		d.at[timerStall] = d.now() + d.cfg.IdleTimeout
		d.tr.state("the screen stands still, but the program used a CPU since the last look and its session has not begun: still starting")
		return
	}
	if d.cfg.Profile.Ready == nil && d.t.pending == nil && heuristics.InputBox(d.screen) {
		// No profile knows this TUI's input box, but its shape is one: the
		// program waits for the next prompt, its turn is over.
		d.emitErr(d.out.Notice(fmt.Sprintf("yume-cli: the program shows an input box and nothing changed for %v (profile %s); the turn ends here", d.cfg.IdleTimeout, d.cfg.Profile.Name)))
		d.turnDone(nil, "an input box on a still screen")
		return
	}
	screen := strings.TrimRight(d.screen.String(), "\n ")
	what := "no question yume-cli can answer and no sign of work in progress"
	if d.pendingCall() != nil {
		what = "a tool call pending in its transcript, and no question a rule of the profile recognises"
	}
	reason := fmt.Sprintf("%s shows a screen that has not changed for %v, with %s (profile %s, state %s); "+
		"the turn ends here. Add a rule with --rules (yume-cli rules suggest FILE.cast proposes one); the screen is in --trace. The last screen:\n%s",
		d.cfg.Profile.Name, d.cfg.IdleTimeout, what, d.cfg.Profile.Name, d.st, screen)
	d.tr.state("stalled: " + reason)
	d.abort("yume-cli: "+reason, false)
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

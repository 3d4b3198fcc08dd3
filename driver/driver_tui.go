package driver

import (
	"fmt"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
)

// Full-screen TUIs (Copilot CLI, Claude Code, Gemini CLI, Codex) differ from
// line-oriented programs in three ways the driver handles here, driven by
// the profile alone:
//
//   - they redraw in place, so a command's output is read from the TUI's own
//     rendering by a result rule, not from lines scrolling away;
//   - they do not exit after a turn: a done rule sees the idle screen, its
//     text group is the final answer, and the profile's quit keys end the
//     program (retyped while it lingers, as "press Ctrl-C again" asks);
//   - they take typed prompts only once their input box is ready, and read
//     a prompt as a paste when bracketed paste is on.

// quitTries bounds how often the quit keys are typed: once, then again on
// every settled screen while the program lingers ("press Ctrl-C again to
// exit"). Retyping on settled screens, not on a timer, keeps a replay in
// step with the recording. quitGrace is how long a live program may take
// to exit after the first try before its process group is stopped.
const (
	quitTries = 4
	quitGrace = 5 * time.Second
)

// noOutput is the tool_result of an approved command whose output the TUI
// did not show before its turn ended.
const noOutput = "(the program showed no output for this command)"

// readsResults reports whether the profile reads command output from the
// screen (a result rule) instead of from retired lines.
func readsResults(p *heuristics.Profile) bool {
	for _, r := range p.Rules {
		if r.Kind == heuristics.KindResult {
			return true
		}
	}
	return false
}

// result ends the capture with the output a result rule read.
func (d *driver) result(det *heuristics.Detection) {
	if d.st != stateCapturing {
		return // not after an approval: an old block still on screen
	}
	if d.recordLive() && d.recordHas(d.capture.id) {
		d.tr.state("a result rule fired; the output comes from the program's record")
		return
	}
	c := d.stopCapture()
	for _, l := range strings.Split(det.Output, "\n") {
		c.add(l)
	}
	text := c.text()
	if text == "" {
		text = noOutput
	}
	d.toIdle("the output of " + c.id + " is shown")
	d.emitErr(d.out.ToolResult(c.id, text, false))
}

// done is a done rule seeing the end of the turn on screen. With the
// program's record, the record's end of the turn counts (the screen's
// wording changes between releases); after a denial the screen is enough,
// since the program stops the turn without a word in its record.
func (d *driver) done(det *heuristics.Detection) {
	if d.isEarlierAnswer(det.Text) && !(d.rec.prompted && d.showsTurnPrompt()) {
		// A resumed or continued session shows its earlier turns again
		// before this turn's prompt reaches it. An answer that repeats an
		// earlier one counts once the record holds this turn's prompt and
		// the screen shows it (the record can be ahead of the screen).
		// The engine fires once per screen identity, so this does not spin.
		d.tr.state("done rule " + det.Rule.Name + " reads an earlier turn's answer before this turn began: not this turn's end")
		return
	}
	if d.inputPending() {
		d.engine.Forget(det) // done again once the program took the keys
		return
	}
	if d.recordLive() && d.cfg.RecordEndsTurns {
		d.pollRecord()
		if d.st == stateQuitting || d.st == stateEnded || !d.deniedLast {
			d.engine.Forget(det) // the record ends the turn, or will
			return
		}
	}
	if d.recordLive() {
		d.pollRecord() // the record's text, not the screen's
	} else {
		d.text(det.Text)
	}
	if d.st != stateQuitting && d.st != stateEnded {
		d.turnDone(det, "a done rule fired")
	}
}

// turnDone ends the turn: calls the record still holds unreported, the open
// capture (stopping before det's rows), a question the program dropped;
// then, for a program that stays open, its quit keys.
func (d *driver) turnDone(det *heuristics.Detection, why string) {
	d.reportUnasked(0)
	d.endCapture(det)
	if d.st == stateAwaiting {
		d.supersede("the turn ended before a decision was made")
	}
	if d.cfg.Persistent {
		d.betweenTurns(why)
		return
	}
	if d.cfg.Profile.Quit.IsZero() {
		d.toIdle("the program's turn is done (" + why + "); it ends by itself")
		return
	}
	d.tr.state("the turn is done: " + why)
	d.quit()
}

// rememberAnswer keeps an answer of an earlier turn, so the program
// showing it again does not end the next turn.
func (d *driver) rememberAnswer(a string) {
	if k := answerKey(a); k != "" {
		d.earlier[k] = true
	}
}

func (d *driver) isEarlierAnswer(t string) bool {
	k := answerKey(t)
	return k != "" && d.earlier[k]
}

// turnPrompt is the running turn's prompt: the one typed (a persistent
// session's) or the one the program was started with.
func (d *driver) turnPrompt() string {
	if d.typed != "" {
		return d.typed
	}
	return d.cfg.Prompt
}

// showsTurnPrompt reports whether the screen shows the start of this
// turn's prompt (a TUI echoes it above the answer).
func (d *driver) showsTurnPrompt() bool {
	head := promptHead(d.turnPrompt())
	return head != "" && strings.Contains(normalText(d.screen.String()), head)
}

// isPromptOf reports whether a recorded prompt is prompt (by its start: a
// program may add to what it records, like attached files).
func isPromptOf(recorded, prompt string) bool {
	head := promptHead(prompt)
	return head != "" && strings.Contains(normalText(recorded), head)
}

// promptHead is how a prompt is recognised on screen or in a record: its
// first words, as normalText has them.
func promptHead(prompt string) string { return cutRunes(normalText(heuristics.TextOnly(prompt)), 24) }

// answerKey is an answer as the screen and the record both show it; a
// wrapped long answer may end differently on screen, so only its start.
func answerKey(t string) string { return cutRunes(normalText(t), 200) }

// normalText is text as a TUI and a record both have it: markdown marks
// and line breaks, which a TUI renders away, removed; spaces collapsed.
func normalText(t string) string {
	t = strings.Map(func(r rune) rune {
		if strings.ContainsRune("*_`#>", r) {
			return -1
		}
		return r
	}, t)
	return strings.Join(strings.Fields(t), " ")
}

func cutRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// inputPending retypes the last input keys when the question they answered
// is still on screen while a command's output is being captured: a busy TUI
// may drop a key (Copilot ignores Ctrl-O while it works), and the turn must
// not end before the output is shown. It gives up after maxInputRetries.
func (d *driver) inputPending() bool {
	in := d.lastInput
	if d.st != stateCapturing || in == nil || d.inputRetries >= maxInputRetries || !d.engine.StillShows(d.screen, in) {
		return false
	}
	d.inputRetries++
	d.tr.state(fmt.Sprintf("the program has not taken the %s keys yet: typing them again (try %d of %d)", in.Rule.Name, d.inputRetries, maxInputRetries))
	d.send(in.Rule, "input", d.lastInputKeys)
	return true
}

const maxInputRetries = 3

// text emits assistant text read from the screen, unless the same text was
// already emitted this session: a TUI redraws (and scrolls) its answers,
// so one answer is seen at several rows.
func (d *driver) text(t string) {
	t = strings.TrimSpace(t)
	if t == "" || d.texts[t] {
		return
	}
	d.texts[t] = true
	d.say(t)
}

// say emits assistant text as it is (the record's, once each).
func (d *driver) say(t string) {
	if t = strings.TrimSpace(t); t != "" {
		d.emitErr(d.out.Text(t))
		d.lastText = t
	}
}

// quit types the profile's quit keys. From the first try a live program
// has quitGrace to exit: a screen that never settles (an animation) gets
// no retries, and must not keep the session open.
func (d *driver) quit() {
	if d.quitting == 0 {
		d.to(stateQuitting, "the turn is done")
	}
	d.quitting++
	d.tr.state(fmt.Sprintf("turn done: typing the quit keys (try %d of %d)", d.quitting, quitTries))
	d.send(&heuristics.Rule{Name: "quit"}, "quit", d.cfg.Profile.Quit)
	if d.quitting == 1 {
		d.quitAt = d.now() + quitGrace
	}
}

// quitTimer fires when the program did not exit within quitGrace.
func (d *driver) quitTimer() {
	d.quitAt = 0
	d.tr.state("the program did not exit after its quit keys: stopping it")
	_ = d.cfg.Term.Close() // Best effort: EOF on the PTY ends the session.
}

// pasteSubmitDelay is the least time between a typed prompt and the Enter
// that submits it; enterWait bounds how long the Enter waits for the
// program to draw the prompt.
const (
	pasteSubmitDelay = 100 * time.Millisecond
	enterWait        = time.Second
)

// enterDelay is how long the screen must be still after a typed prompt
// before its Enter.
func (d *driver) enterDelay() time.Duration { return max(pasteSubmitDelay, d.quiet) }

// typePrompt types a queued prompt once the program is ready for it: the
// profile's ready regex matches the screen (no regex: at once). With
// bracketed paste on, the text goes as one paste, then Enter submits it.
func (d *driver) typePrompt() {
	if d.queued == "" || d.st != stateIdle {
		return
	}
	if re := d.cfg.Profile.Ready; re != nil && !re.MatchString(d.screen.String()) {
		return
	}
	b := d.typeText("user prompt", d.queued)
	d.typed, d.queued = d.queued, ""
	d.tr.keys("user prompt", "", b)
	if _, err := d.cfg.Term.Write(b); err != nil {
		d.emitErr(d.out.SystemError("could not type the prompt: " + err.Error()))
		return
	}
	// Enter apart from the paste, after the program drew it: a TUI that
	// reads the paste as one event would take an Enter with it as text,
	// and Gemini takes an Enter that comes just after a paste it is still
	// drawing as a line break (its guard against pasted text submitting
	// itself; seen on a loaded machine). So each output moves the Enter
	// on (printedAt) until the screen is still, for at most enterWait; a
	// program that draws nothing gets it then.
	d.enterBy = d.now() + enterWait
	d.enterAt = d.enterBy
}

// A TUI may drop the Enter that submits a typed prompt (Gemini, busy
// drawing the paste on a loaded machine): the screen then does not change,
// or it redraws its input box as it was, the prompt still in it. Enter is
// typed again while that lasts, a few times; an extra Enter on an empty
// input box does nothing.
const (
	submitCheck = 1500 * time.Millisecond
	maxSubmits  = 3
)

// submitPrompt types the Enter after a typed prompt and starts the check.
func (d *driver) submitPrompt() {
	d.send(&heuristics.Rule{Name: "prompt"}, "submit prompt", enterKey)
	d.submits = 1
	d.markSubmit()
}

// markSubmit notes the screen an Enter was typed on.
func (d *driver) markSubmit() {
	d.submitAt, d.submitGen = d.now()+submitCheck, d.screen.Generation()
	d.submitRow, _, _ = d.screen.Cursor()
	d.submitLine = d.screen.Line(d.submitRow)
}

// submitTaken reports whether the program shows it took the Enter: its
// screen moved other than by redrawing the input row as it was, or it
// shows it is busy.
func (d *driver) submitTaken() bool {
	if d.screen.Generation() == d.submitGen {
		return false
	}
	if busy := d.cfg.Profile.Busy; busy != nil && busy.MatchString(d.screen.String()) {
		return true
	}
	row, _, _ := d.screen.Cursor()
	return row != d.submitRow || strings.TrimSpace(d.submitLine) == "" || d.screen.Line(row) != d.submitLine
}

// submitLost types Enter again when the program has not taken the last
// one and the turn has not visibly begun.
func (d *driver) submitLost() {
	if d.st != stateIdle || d.rec.prompted || d.submits >= maxSubmits {
		return
	}
	if d.submitTaken() {
		d.tr.state("the program took the prompt's Enter: its screen moved on")
		return
	}
	d.submits++
	d.tr.state(fmt.Sprintf("the input box still holds the prompt %v after its Enter: typing Enter again (%d of %d)", submitCheck, d.submits, maxSubmits))
	d.send(&heuristics.Rule{Name: "prompt"}, "submit prompt again", enterKey)
	d.markSubmit()
}

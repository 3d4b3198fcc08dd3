package driver

import (
	"strings"

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
//     program (quit.go);
//   - they take typed prompts only once their input box is ready, and read
//     a prompt as a paste when bracketed paste is on (prompt.go).

// done is a done rule seeing the end of the turn on screen. With the
// provider's transcript, the log's end of the turn counts (the screen's
// wording changes between releases); after a denial the screen is enough,
// since the program stops the turn without a word in its log.
func (d *driver) done(det *heuristics.Detection) {
	if d.isEarlierAnswer(det.Text) && !(d.t.log.prompted && d.showsTurnPrompt()) {
		// A resumed or continued session shows its earlier turns again
		// before this turn's prompt reaches it. An answer that repeats an
		// earlier one counts once the log holds this turn's prompt and the
		// screen shows it (the log can be ahead of the screen).
		// The engine fires once per screen identity, so this does not spin.
		d.tr.state("done rule " + det.Rule.Name + " reads an earlier turn's answer before this turn began: not this turn's end")
		return
	}
	if !d.t.begun {
		d.tr.state("done rule " + det.Rule.Name + " fired before this turn's prompt was submitted: not its end")
		return
	}
	if d.turnGoesOn(det) {
		return // done again once the person's keys played
	}
	if d.st == stateCapturing && d.awaitsKeys("input") {
		d.engine.Forget(det) // done again once the program took the keys that show the output
		return
	}
	if d.logFound() && d.cfg.LogEndsTurns {
		d.pollLog()
		if d.st == stateQuitting || d.st == stateEnded || d.t.verdict != denied {
			d.engine.Forget(det) // the transcript ends the turn, or will
			return
		}
	}
	if d.logFound() {
		d.pollLog() // the log's text, not the screen's
	} else {
		d.text(det.Text)
	}
	if d.st != stateQuitting && d.st != stateEnded {
		d.turnDone(det, "a done rule fired")
	}
}

// turnDone ends the turn: calls the transcript still holds unreported, the open
// capture (stopping before det's rows), a question the program dropped;
// then, for a program that stays open, its quit keys.
func (d *driver) turnDone(det *heuristics.Detection, why string) {
	if d.modelErrorEndsTurn(why) {
		return
	}
	d.reportUnasked(0)
	d.endCapture(det)
	d.dropQuestion("the turn ended before a decision was made")
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

// showsTurnPrompt reports whether the screen shows the start of this
// turn's prompt (a TUI echoes it above the answer).
func (d *driver) showsTurnPrompt() bool {
	head := promptHead(d.t.prompt)
	return head != "" && strings.Contains(normalText(d.screen.String()), head)
}

// isPromptOf reports whether a logged prompt is prompt (by its start: a
// program may add to what it logs, like attached files).
func isPromptOf(recorded, prompt string) bool {
	head := promptHead(prompt)
	return head != "" && strings.Contains(normalText(recorded), head)
}

// promptHead is how a prompt is recognised on screen or in a log: its
// first words, as normalText has them.
func promptHead(prompt string) string { return cutRunes(normalText(heuristics.TextOnly(prompt)), 24) }

// answerKey is an answer as the screen and the log both show it; a
// wrapped long answer may end differently on screen, so only its start.
func answerKey(t string) string { return cutRunes(normalText(t), 200) }

// normalText is text as a TUI and a log both have it: markdown marks
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

// say emits assistant text as it is (the transcript's, once each).
func (d *driver) say(t string) {
	if t = strings.TrimSpace(t); t != "" {
		d.emitErr(d.out.Text(t))
		d.t.lastText = t
	}
}

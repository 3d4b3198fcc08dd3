package driver

import (
	"fmt"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/heuristics"
)

// keysDone ends the typing: the answer's own work follows.
func (d *driver) keysDone(k *keying) {
	d.t.keying, d.at[timerKeys] = nil, 0
	// The program answers the keys: only a settled screen may fire now
	// (a question it draws next is not ready before it settles).
	d.t.settling = true
	d.at[timerQuiet] = d.now() + d.quiet
	if k.again {
		d.at[timerKeys] = d.now() + retryAfter/4 // the check goes on
		return
	}
	if !k.followup {
		d.t.answerMark = k.mark
	}
	k.then(k)
}

// keysFailed handles an answer that could not be typed as planned: never
// an Enter on an option that was not confirmed. The question is cancelled
// with the program's cancel key where it has one, else the turn ends.
// It returns true when the cancel key went.
func (d *driver) keysFailed(k *keying, why string) bool {
	d.t.keying, d.at[timerKeys] = nil, 0
	if k.followup {
		cancel, name := d.cancelKeys(k.det)
		d.tr.state(fmt.Sprintf("the %s keys could not be typed: %s; cancelling with %s", k.why, why, name))
		if b, err := cancel.Encode(d.screen); err == nil && len(b) > 0 {
			d.send(k.det.Rule, "cancel", cancel)
			return true
		}
		d.abort("yume-cli could not answer the follow-up question: "+why, false)
		return false
	}
	if k.again { // typed once already: the question stayed up
		if c := d.t.check; c != nil {
			d.t.check = nil
			d.answerNotTaken(c)
		}
		return false
	}
	cancel, name := d.cancelKeys(k.det)
	msg := fmt.Sprintf("yume-cli could not type the %s answer: %s. Keys typed: %s.", k.why, why, k.keysTyped())
	d.tr.state(msg)
	d.settled[k.p.id] = "not answered"
	files := d.watchedFiles(k.p)
	if b, err := cancel.Encode(d.screen); err == nil && len(b) > 0 {
		if _, err := d.cfg.Term.Write(b); err == nil {
			d.tr.keys("cancel", k.det.Rule.Name, b)
			d.t.verdict = denied
			d.outcome.Denials++
			d.markDenied(k.p.id)
			k.sentAt, k.cancel = d.now(), cancel
			d.toIdle("the answer could not be typed; cancelled with " + name)
			d.emitErr(d.out.Deny(k.p.id, k.p.tool, k.p.input, msg+" It pressed "+name+" to cancel the question, so the command did not run as asked.\nThe screen:\n"+d.screenText()))
			d.watchDenial(k, append(k.typed, name), files)
			return true
		}
	}
	d.emitErr(d.out.ToolResult(k.p.id, msg+" The program has no cancel key yume-cli knows, so the turn ends.\nThe screen:\n"+d.screenText(), true))
	d.toIdle("the answer could not be typed")
	d.abort("yume-cli: "+msg+" The turn ends here.", false)
	return false
}

// cancelKeys are the program's own way to cancel a question: a deny that
// is one cancel key (Esc, Ctrl-C), the profile's interrupt keys, or Esc
// where the screen offers it ("Esc to cancel").
func (d *driver) cancelKeys(det *heuristics.Detection) (heuristics.Keys, string) {
	if s := det.Rule.Deny.String(); s == "<Esc>" || s == "<C-c>" {
		return det.Rule.Deny, s
	}
	if !d.cfg.Profile.Interrupt.IsZero() {
		return d.cfg.Profile.Interrupt, d.cfg.Profile.Interrupt.String()
	}
	if escOffered.MatchString(d.screen.String()) {
		return heuristics.MustParseKeys("<Esc>"), "<Esc>"
	}
	return heuristics.Keys{}, ""
}

// escOffered: a screen that names Esc as its cancel key.
var escOffered = lazyre.New(`(?i)\besc(?:ape)?\b[^\n]{0,20}\b(?:cancel|reject|deny|stop|dismiss|close)|\b(?:cancel|reject|deny)[^\n]{0,12}\(esc\)`)

// screenText is the visible screen, for reports.
func (d *driver) screenText() string { return strings.TrimRight(d.screen.String(), "\n ") }

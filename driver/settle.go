package driver

import (
	"fmt"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
)

// A question a rule reads whole on screen is asked when its dialog is
// settled, not the whole screen. The AI TUIs redraw a spinner, a clock or
// a logo above or below a dialog that is drawn and waiting: settling on
// the whole screen waited for them (the profiles' quiet_ms, 100 ms, after
// the last of their frames), and the dialog had been complete all along.
//
// A dialog is settled
//   - as soon as the program pauses, when what follows the rule's match
//     is what the profile says ends its dialogs drawn whole (dialog_end:
//     the other options and the footer, in rows of the dialog's own; a
//     frame written in pieces, as Gemini CLI's, has no footer yet);
//   - when its rows (the match and the options under it) held still for
//     questionQuiet, where the profile cannot tell or the end is not
//     drawn;
//   - at once when the program sleeps with everything it printed read.
//
// Whatever comes first, and never later than the whole screen would have
// settled. Keys wait as they always did: an answer's first key goes once
// the whole screen was quiet (planKeys), so nothing is typed sooner.

// questionQuiet is how long a question's rows must stay still before it
// is asked, where the profile's quiet period is longer and its dialog's
// end is not known drawn. The quiet period keeps rules off a frame still
// being drawn; a rule that matches the whole dialog, its options and its
// prompt, reads a frame that was drawn. A program's next frame, if any,
// is looked at before keys are typed, as always.
const questionQuiet = 30 * time.Millisecond

// asking is the question on screen while it settles: its rows' text and
// when it last changed.
type asking struct {
	key, rows string
	since     time.Duration
}

// questionSettles, once output paused (soon), brings the settled look
// forward for a question a rule asks that is whole on screen: to now when
// its dialog is drawn to its end or the program is at rest, else to
// questionQuiet after its rows last changed.
func (d *driver) questionSettles() {
	if d.at[timerQuiet] == 0 || d.screen.Synchronized() || (d.st != stateIdle && d.st != stateCapturing) {
		return
	}
	det := d.engine.Asking(d.screen)
	if det == nil {
		d.t.asking = asking{}
		return
	}
	if d.atRest() {
		d.settleNow("a question is whole on screen and the program is at rest: the screen is settled")
		return
	}
	if d.t.runningDeferred > 0 {
		// Put off while the program ran (stillRunning, a profile whose
		// program stops to ask): each early look would use up one of
		// its bounded deferrals; the whole screen settles it, as before.
		d.settleBy(d.lastOutput+questionQuiet, "a question is whole on screen: settled if the screen stays still")
		return
	}
	first, last, whole := d.dialogRows(det)
	if rows := d.rowsText(first, last); rows != d.t.asking.rows || det.Key != d.t.asking.key {
		// Changed by some output since the last look: the last output
		// is the latest it can have been.
		d.t.asking = asking{key: det.Key, rows: rows, since: d.lastOutput}
	}
	if whole {
		d.settleNow(fmt.Sprintf("a question is whole on screen and its dialog is drawn to its end (rows %d-%d): settled", first, last))
		return
	}
	// Never later than the whole screen's stillness would be: the rows
	// changed at the last output at the latest.
	at := d.t.asking.since + questionQuiet
	if at <= d.now() {
		d.settleNow(fmt.Sprintf("a question is whole on screen and its rows %d-%d held still %v: settled", first, last, questionQuiet))
		return
	}
	d.settleBy(at, fmt.Sprintf("a question is whole on screen: settled if its rows %d-%d stay still until %v", first, last, at))
}

// settleBy brings the settled look forward to at, if it is later.
func (d *driver) settleBy(at time.Duration, why string) {
	if at < d.at[timerQuiet] {
		d.at[timerQuiet] = at
		d.tr.state(why)
	}
}

// atRest reports that the program waits for keys with everything it
// printed read: it draws nothing more until it gets some.
func (d *driver) atRest() bool {
	rest, known := d.src.readsKeys()
	return rest && known || d.src.blockedOnKeys()
}

// settleNow evaluates the screen as settled, now.
func (d *driver) settleNow(why string) {
	d.tr.state(why)
	d.at[timerQuiet] = 0
	d.evaluate(true)
}

// dialogRows are a question's own rows on screen: from the first its rule
// matched to the end of its dialog where the profile's dialog_end finds
// it from the match's last row down (whole), else to the end of the
// options under the match (the rows down to the first blank one).
func (d *driver) dialogRows(det *heuristics.Detection) (first, last int, whole bool) {
	rows := visibleRows(det.Rows)
	if len(rows) == 0 {
		return 0, d.screen.Rows() - 1, false
	}
	first, last = rows[0], rows[len(rows)-1]
	if end, ok := d.cfg.Profile.DialogEnd(d.screen, det); ok {
		return first, end, true
	}
	for last+1 < d.screen.Rows() && strings.TrimSpace(d.screen.Line(last+1)) != "" {
		last++
	}
	return first, last, false
}

// rowsText is the screen's rows from..to, their trailing spaces
// dropped, each ended by a line break.
func (d *driver) rowsText(from, to int) string {
	var b strings.Builder
	for r := max(from, 0); r <= to && r < d.screen.Rows(); r++ {
		b.WriteString(strings.TrimRight(d.screen.Line(r), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

package driver

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/heuristics"
)

// A replay of a person's own session follows the person's keys after a
// turn's answer too. A person may look closer before leaving: Ctrl-O in
// Claude Code opens its detailed transcript, where the output of a
// command its main view folds into "Ran 1 shell command" is drawn. Such
// keys only change what the program shows: they are the person's own,
// not an answer and not a difference, and the rules read what the new
// view shows (a result rule reads the output there). The turn is not over
// while the recording still has keys of it to play.

// viewKeys are the profile's keys that only change what its program
// shows (view_keys): a person types them to look, never to answer.
func viewKeys(p *heuristics.Profile) []string {
	var out []string
	for _, k := range p.ViewKeys {
		if b, err := k.Encode(nil); err == nil && len(b) > 0 {
			out = append(out, string(b))
		}
	}
	return out
}

// leadingViewKey is the key of keys that in starts with ("": none).
func leadingViewKey(keys []string, in string) string {
	for _, k := range keys {
		if strings.HasPrefix(in, k) {
			return k
		}
	}
	return ""
}

// viewPrefix is the view keys (of keys) that in starts with.
func viewPrefix(keys []string, in string) string {
	n := 0
	for {
		k := leadingViewKey(keys, in[n:])
		if k == "" {
			return in[:n]
		}
		n += len(k)
	}
}

// skipView takes the view keys the recording typed before an answer: the
// person looked, then answered; the answer is what the rule's keys meet.
func (t *replayTerm) skipView() {
	if v := viewPrefix(t.view, t.rec.PendingInput()); v != "" {
		if w, ok := t.rec.(answerWriter); ok {
			_, _ = w.WriteAnswer([]byte(v), nil, false, false) // the recorded input itself
		}
	}
}

// takeViewKeys takes, in a replay, the view keys the recording typed next
// whose recorded time has come: the person's own, played as they were
// pressed. The screen they lead to is evaluated as any other; a done rule
// held back for them may fire again.
func (d *driver) takeViewKeys() {
	rec := d.src.recording()
	if rec == nil {
		return
	}
	if rec.viewGen != 0 && d.screen.Generation() != rec.viewGen {
		rec.viewGen = 0 // the view the key led to is drawn
	}
	if rec.heldDone != nil && rec.heldUntil <= d.now() && rec.viewGen == 0 {
		d.engine.Forget(rec.heldDone)
		rec.heldDone = nil
	}
	for {
		k := leadingViewKey(rec.view, rec.PendingInput())
		if k == "" {
			return
		}
		at, ok := rec.nextInputAt()
		if !ok {
			return
		}
		if at > d.now() { // the person has not pressed it yet: look then
			if d.at[timerSoon] == 0 || d.at[timerSoon] > at {
				d.at[timerSoon] = at
			}
			return
		}
		if err := rec.takeKeys(k); err != nil {
			return
		}
		rec.viewGen = d.screen.Generation()
		d.tr.keys("view", "", []byte(k))
		d.tr.state("the recording's " + strconv.Quote(k) + " only changes what the program shows: the person's own, not an answer")
	}
}

// turnGoesOn reports, in a replay, that the recording still has keys of
// this turn to play at a screen that ends it (det, a done rule): keys
// that are not the profile's quit keys nor the next turn's prompt, and
// that the person had not typed yet at this point of the recording. The
// screen is evaluated again at their recorded time, where det may fire
// again.
func (d *driver) turnGoesOn(det *heuristics.Detection) bool {
	rec := d.src.recording()
	if rec == nil {
		return false
	}
	if rec.viewGen != 0 && d.screen.Generation() == rec.viewGen {
		rec.heldDone, rec.heldUntil = det, d.now()
		d.tr.state("done rule " + det.Rule.Name + " fired on the screen before the person's view key took effect: not its end yet")
		return true // looked at again once the view it leads to is drawn
	}
	if !rec.inputToCome() {
		return false
	}
	in := rec.PendingInput()
	if _, _, prompt := promptLine(in); prompt {
		return false // the next turn's prompt, typed at the input box this turn ended at
	}
	at, ok := rec.nextInputAt()
	if !ok || at <= d.now() {
		return false // its time has come and nothing took it: not this turn's
	}
	rec.heldDone, rec.heldUntil = det, at
	if d.at[timerQuiet] == 0 || d.at[timerQuiet] > at {
		d.at[timerQuiet] = at // look again when the person typed them
	}
	d.tr.state(fmt.Sprintf("done rule %s fired, but the recording types %s at %v, before the turn ends: not its end yet",
		det.Rule.Name, strconv.Quote(in[:min(len(in), 40)]), at))
	return true
}

// takeLeaving ends, in a replay, a turn whose end no done rule saw when
// the person leaves the program with its quit keys (quit or quit_also)
// at its ready input box, not busy, with no question up: the turn was
// over on screen (a row the rules do not know under the answer, such as
// tmux's notice), and the person leaving says so. The quit keys the
// driver then types meet theirs.
func (d *driver) takeLeaving() {
	rec := d.src.recording()
	if rec == nil || !d.inTurn() || !d.t.begun || d.cfg.Profile.Ready == nil {
		return
	}
	switch d.st {
	case stateIdle, stateCapturing:
	default:
		return // a question is up (quit keys there answer it), or the turn is over
	}
	in := rec.PendingInput()
	if rec.quitForm(in) == nil {
		return
	}
	if at, ok := rec.nextInputAt(); !ok || at > d.now() {
		return
	}
	before := d.recordedScreen(0, nil).(interface{ String() string }).String() // the screen the person left
	p := d.cfg.Profile
	if !p.Ready.MatchString(before) || p.Busy != nil && p.Busy.MatchString(before) {
		return
	}
	d.tr.state("the recording leaves the program with its quit keys at its ready input box, not busy: the turn was over")
	d.turnDone(nil, "the person left the program at its ready input box")
}

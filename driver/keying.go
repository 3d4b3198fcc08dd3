package driver

import (
	"fmt"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// Keys toward a choice go one at a time, each confirmed on screen. An Ink
// TUI reads one read's bytes as one input: Down, Down and Enter written
// together moved nothing, and the Enter chose "1. Yes" where the GUI had
// denied (Claude Code 2.1.197). So a live answer is a plan
// (heuristics.PlanAnswer) typed key by key: a move of a menu's highlight
// waits until the highlight moved, a typed character until the screen
// changed, and Enter goes only when the highlight is on the option the
// answer means. A screen that does not follow within keyBound cancels the
// question with the program's own cancel key, or ends the turn. A replay
// types the whole answer at once: the recording's screens follow the
// recorded keys, not ours.

const (
	// keyBound is how long the screen may take to show that one key took
	// effect (a loaded machine redraws an Ink dialog in hundreds of ms).
	keyBound = 5 * time.Second
	// moveAgain is how long a highlight may stay where it was, after a
	// move, before the move is typed again: moves are checked before
	// Enter, so one typed twice is walked back, never chosen.
	moveAgain      = time.Second
	maxMoveRetries = 2
)

// keying is an answer being typed.
type keying struct {
	p     *pending // the question answered
	det   *heuristics.Detection
	why   string // approve, deny
	keys  heuristics.Keys
	began time.Duration
	plan  *heuristics.Plan // nil until the screen allows one (planKeys)
	next  int              // the next of plan.Steps
	typed []string         // the keys typed so far, named
	// The last key: when it went, the screen then, and for a walk's move
	// the option highlighted when it went.
	sentAt  time.Duration
	waiters ptyhost.Waiters // who waited for the last key as it went (readTheKey)
	gen     uint64
	waiting bool // the last key's effect is not seen yet
	from    string
	moving  bool
	moves   int
	retries int
	mark    uint64 // the line after the question (markAfter), taken before any key
	retired uint64 // the screen's retired lines before any key
	row     uint64 // the cursor's absolute row before any key
	then    func(k *keying)
	again   bool // typed again (answer_check.go): then ran already
	// cancel: the question was cancelled with these keys (keysFailed).
	cancel heuristics.Keys
	// ranBefore: the rows showing a command running before any key.
	ranBefore map[string]bool
	// followup: an "are you sure?" answered as the question before it
	// was; no tool_use of its own, and the state stays as it is.
	followup bool
	// shown is what the question's rows hold, and shownAt when that last
	// changed (questionStill).
	shown   string
	shownAt time.Duration
}

// keyAtOnce: the next key may go without a quiet period after the
// program's last output. One blocked reading its terminal, everything it
// printed read, draws nothing more, and the key reaches it in a read of
// its own; but not one whose profile says it drops keys: it may be
// blocked reading between the frames of a redraw, and lose a key typed
// into it.
func (d *driver) keyAtOnce() bool {
	return !d.cfg.Profile.MayDropKeys() && d.src.blockedOnKeys()
}

// questionStill is how long the question's part of the screen (its first
// row to the bottom: the dialog, its options, its footer) has not
// changed. A key is typed again only on a still dialog, and the rest of
// the screen may never be still: Claude Code 2.1.332 animates its logo
// and blinks a "Running 1 shell command…" row above a dialog a third of
// a second apart, so a lost Enter waited for a still screen that never
// came and the question was cancelled after keyBound. Called on every
// output (stepKeys, followAnswer), so a change is seen when it happens.
func (d *driver) questionStill(k *keying) time.Duration {
	top := -1
	for _, r := range k.det.Rows {
		if r >= 0 && (top < 0 || r < top) {
			top = r
		}
	}
	if top < 0 { // no rows of its own: the whole screen
		return d.now() - d.lastOutput
	}
	var b strings.Builder
	for r := top; r < d.screen.Rows(); r++ {
		b.WriteString(d.screen.Line(r))
		b.WriteByte('\n')
	}
	if s := b.String(); s != k.shown || k.shownAt == 0 {
		k.shown, k.shownAt = s, d.now()
	}
	return d.now() - k.shownAt
}

// keysTyped is the answer's keys as typed, for reports.
func (k *keying) keysTyped() string {
	if len(k.typed) == 0 {
		return "none"
	}
	return strings.Join(k.typed, " ")
}

// answerKeys types keys that answer p's question, one at a time, then
// runs then. false: no key could be typed (the caller reports it).
func (d *driver) answerKeys(p *pending, why string, keys heuristics.Keys, then func(k *keying)) bool {
	if d.src.recording() != nil { // a replay: the recording's keys, compared whole
		d.answering(p.det)
		if !d.typeAnswer(p.det, why, keys) {
			return false
		}
		then(&keying{p: p, det: p.det, why: why, mark: d.t.answerMark, retired: d.screen.Retired()})
		return true
	}
	row, _, _ := d.screen.Cursor()
	k := &keying{p: p, det: p.det, why: why, keys: keys, then: then, mark: d.markAfter(p.det),
		row: d.screen.Retired() + uint64(row), retired: d.screen.Retired(), began: d.now(), ranBefore: d.ranSet()}
	d.t.answerMark = k.mark
	d.t.retry = nil
	d.t.keying = k
	d.to(stateAnswering, why+" "+p.id+": typing the keys one at a time")
	d.stepKeys()
	return d.st != stateEnded
}

// planKeys makes k's plan once the screen allows: keys that move a menu's
// highlight and choose wait for the menu to be drawn whole (a rule may
// fire on its question before its options are drawn; a program blocked
// reading its terminal has drawn it); past moveAgain they go one by one
// on a menu no reader knows. false: not yet.
func (d *driver) planKeys(k *keying) bool {
	waited := d.now() - k.began
	if d.now()-d.lastOutput < d.quiet && waited < keyBound && !d.keyAtOnce() {
		d.at[timerKeys] = d.lastOutput + d.quiet // a frame may be half drawn
		return false
	}
	plan, err := heuristics.PlanAnswer(k.keys, d.screen)
	switch {
	case err == nil && !plan.Walk && heuristics.Chooses(k.keys) && waited < moveAgain,
		err != nil && waited < keyBound:
		d.at[timerKeys] = d.now() + moveAgain/4
		return false
	case err == nil:
		err = meansWhat(plan, k.why)
	}
	if err != nil {
		d.tr.state(fmt.Sprintf("the %s keys cannot be typed as planned: %v", k.why, err))
		d.keysFailed(k, err.Error())
		return false
	}
	k.plan = plan
	d.tr.state(fmt.Sprintf("%s %s: %s", k.why, k.p.id, plan))
	return true
}

// meansWhat refuses a walk whose option means the opposite of the answer:
// keys planned on a dialog whose options moved must not choose "Yes" for a
// denial.
func meansWhat(p *heuristics.Plan, why string) error {
	if !p.Walk {
		return nil
	}
	m := heuristics.OptionMeaning(p.Target)
	switch {
	case strings.Contains(why, "deny") && m == heuristics.MeansAllow:
		return fmt.Errorf("the deny keys would choose %q, which allows", p.Target)
	case strings.Contains(why, "approve") && m == heuristics.MeansReject:
		return fmt.Errorf("the approve keys would choose %q, which rejects", p.Target)
	}
	return nil
}

// stepKeys moves the answer on: once the screen shows the last key took
// effect, the next key goes. Called on every output and on the keys timer.
func (d *driver) stepKeys() {
	k := d.t.keying
	if k == nil || d.screen.Synchronized() || k.plan == nil && !d.planKeys(k) {
		return
	}
	if k.waiting { // a key went: has it taken effect?
		took, why := d.keyTook(k)
		switch {
		case why != "":
			d.keysFailed(k, why)
			return
		case !took:
			d.keyNotYet(k)
			return
		}
	}
	if len(k.typed) > 0 && d.now()-d.lastOutput < d.quiet && d.now()-k.sentAt < moveAgain && !d.keyAtOnce() {
		// The program still draws what the last key did: a key typed
		// into a redraw may be lost (Claude Code 2.1.332 dropped an Enter
		// typed as its highlight reached "3. No").
		d.at[timerKeys] = d.lastOutput + d.quiet
		return
	}
	if k.plan.Walk && k.next == 0 {
		d.walk(k)
		return
	}
	if k.next == len(k.plan.Steps) {
		d.keysDone(k)
		return
	}
	if k.next > 0 && d.answeredAlready(k) {
		d.tr.state(fmt.Sprintf("the program took %s as the answer: the rest of the keys are not typed", k.keysTyped()))
		d.keysDone(k)
		return
	}
	step := k.plan.Steps[k.next]
	k.next++
	d.typeKey(k, step)
}

// walk moves a walk's highlight one option toward its target, or, on it,
// types the Enter.
func (d *driver) walk(k *keying) {
	c, ok := heuristics.ReadChoices(d.screen)
	if ok && !c.Same(k.plan.Menu) && c.Grows(k.plan.Menu) {
		d.tr.state(fmt.Sprintf("the menu is drawn whole now: %q", c.Options))
		k.plan.Menu = c // it was read half drawn
	}
	if !ok || !c.Same(k.plan.Menu) {
		if ok {
			d.tr.state(fmt.Sprintf("not the menu the answer is for: %q (highlight %d)", c.Options, c.Highlight))
		}
		d.keyNotYet(k) // drawn half, or gone: keyTook's bound decides
		return
	}
	target := c.Index(func(o string) bool { return o == k.plan.Target })
	switch {
	case target < 0:
		d.keysFailed(k, fmt.Sprintf("the option %q is not in the menu %q", k.plan.Target, c.Options))
	case target == c.Highlight:
		d.tr.state(fmt.Sprintf("the highlight is on %q: Enter", k.plan.Target))
		k.next = 1
		d.typeKey(k, k.plan.Steps[0])
	case k.moves >= 2*len(c.Options)+maxMoveRetries:
		d.keysFailed(k, fmt.Sprintf("the highlight did not reach %q after %d moves", k.plan.Target, k.moves))
	default:
		k.moves++
		k.from, k.moving = c.Highlighted(), true
		d.typeKey(k, k.plan.Move(d.screen, target > c.Highlight))
	}
}

// keyTook reports whether the screen shows the last key's effect: a move
// moved the highlight, any other key changed the screen. why is set when
// the answer cannot go on.
func (d *driver) keyTook(k *keying) (took bool, why string) {
	if k.moving {
		c, ok := heuristics.ReadChoices(d.screen)
		if ok && c.Grows(k.plan.Menu) {
			k.plan.Menu = c // it was read half drawn
		}
		if !ok || !c.Same(k.plan.Menu) {
			return false, ""
		}
		if c.Highlighted() == k.from {
			return false, ""
		}
		k.moving, k.waiting, k.retries = false, false, 0 // each move has its own tries
		return true, ""
	}
	if d.screen.Generation() == k.gen && !d.readTheKey(k) {
		return false, ""
	}
	k.waiting = false
	return true, ""
}

// readTheKey reports a key the program took without drawing anything (a
// program that does not echo): a settle period after it, the program waits
// for keys again and a thread that waited for the key has run since (a
// program still blocked reading, the key not handed on to it yet, read
// "y" and Enter in one read on a loaded machine); where the platform
// cannot tell, the screen stayed still for moveAgain. Either way the next
// key arrives in a read of its own.
func (d *driver) readTheKey(k *keying) bool {
	since := d.now() - k.sentAt
	if since < d.quiet {
		return false
	}
	reads, known := d.src.readsKeys()
	if known && !reads {
		return false
	}
	if took, sure := d.src.tookKeys(k.waiters); known && sure {
		return took
	}
	return since >= moveAgain && d.now()-d.lastOutput >= moveAgain
}

// keyNotYet waits for the screen, types a move again where the highlight
// stayed put on a still screen, and gives up after keyBound.
func (d *driver) keyNotYet(k *keying) {
	waited := d.now() - k.sentAt
	if waited >= keyBound {
		what := "the screen did not change after " + k.last()
		if k.moving {
			what = fmt.Sprintf("the highlight stayed on %q after %s", k.from, k.last())
		}
		d.keysFailed(k, fmt.Sprintf("%s for %v", what, keyBound))
		return
	}
	still := d.questionStill(k) // on every output: a change is seen as it comes
	if k.moving && waited >= moveAgain && still >= moveAgain && k.retries < maxMoveRetries {
		// Dropped (a TUI busy drawing), or still queued: either way the
		// walk reads where the highlight is before the next key.
		k.retries++
		d.tr.state(fmt.Sprintf("the highlight stayed on %q for %v of a still screen: typing %s again (try %d of %d)",
			k.from, moveAgain, k.last(), k.retries, maxMoveRetries))
		k.moving, k.waiting = false, false
		d.walk(k)
		return
	}
	d.at[timerKeys] = min(k.sentAt+keyBound, d.now()+moveAgain/4)
}

// last names the last key typed.
func (k *keying) last() string {
	if len(k.typed) == 0 {
		return "the first key"
	}
	return k.typed[len(k.typed)-1]
}

// typeKey types one key of the answer and notes the screen it went on.
func (d *driver) typeKey(k *keying, s heuristics.Step) {
	if k.why == "approve" && d.out.GUIGone() {
		d.leave("the GUI went away before " + k.p.id + " was approved")
		return
	}
	b, err := s.Bytes(d.screen)
	if err == nil {
		k.waiters = d.src.keyWaiters()
		d.tr.keys(k.why, k.det.Rule.Name, b)
		_, err = d.cfg.Term.Write(b)
	}
	if err != nil {
		d.keysFailed(k, fmt.Sprintf("typing %s failed: %v", s.Name(), err))
		return
	}
	k.typed = append(k.typed, s.Name())
	k.sentAt, k.gen, k.waiting = d.now(), d.screen.Generation(), true
	d.at[timerQuiet] = d.now() + d.quiet // look even if nothing is drawn
	if k.next == len(k.plan.Steps) && !k.moving {
		// The last key: what it did is the answer check's to follow
		// (answer_check.go); output after it is the command's.
		d.keysDone(k)
		return
	}
	d.at[timerKeys] = d.now() + moveAgain/4
}

// answeredAlready reports that the program took the keys typed so far as
// its answer (a raw-mode y/n that needs no Enter): the question left the
// screen and the cursor left its row. Typing on would answer the next one.
func (d *driver) answeredAlready(k *keying) bool {
	row, _, _ := d.screen.Cursor()
	return d.screen.Retired()+uint64(row) != k.row && !d.engine.StillShows(d.screen, k.det)
}

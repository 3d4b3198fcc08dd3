package driver

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/vt"
)

// What the screen did next, in a replay: the recording played up to a
// key (recordings.Replay.PlayTo) into a screen of its own, for reading a
// person's keys by what they did (answer_read.go).

// recordedScreen is the screen a person saw just before the key k bytes
// into the pending input: the recording played from its start up to it.
// each, when set, sees the screen after every output recorded from the
// first pending key on, with how many pending bytes were typed by then.
func (d *driver) recordedScreen(k int, each func(v heuristics.View, typed int)) heuristics.View {
	s := vt.NewScreen(d.screen.Cols(), d.screen.Rows())
	p, ok := d.src.recording().rec.(interface {
		PlayTo(to int, write func([]byte, int), resize func(cols, rows int))
	})
	if !ok {
		return d.screen
	}
	p.PlayTo(k, func(b []byte, typed int) {
		_, _ = s.Write(b)
		if typed > 0 && each != nil {
			each(s, typed)
		}
	}, s.Resize)
	return s
}

// lastHighlight is the option of c highlighted last on the screens drawn
// after the first key of an answer whose Enter is at byte enter of the
// pending input, up to the menu going away after it; -1 when none shows c.
func (d *driver) lastHighlight(c *heuristics.Choices, enter int) int {
	last, gone := -1, false
	d.recordedScreen(enter+1, func(v heuristics.View, typed int) {
		if gone {
			return
		}
		seen, ok := heuristics.ReadChoices(v)
		switch {
		case ok && sameOptions(seen, c):
			last = c.Index(func(o string) bool { return o == seen.Highlighted() })
		case !ok && filteredTo(v, c) >= 0:
			last = filteredTo(v, c) // typing filtered the menu down to one option
		case typed > enter:
			gone = true // chosen: a menu drawn later is another question
		}
	})
	return last
}

// pointers mark a menu's highlighted row.
const pointers = "❯›>●"

// filteredTo is the option of c that v shows alone, highlighted: a menu
// filtered down to it (survey's "> Execute command"); -1 for none.
func filteredTo(v heuristics.View, c *heuristics.Choices) int {
	found := -1
	for r := 0; r < v.Rows(); r++ {
		row := strings.TrimSpace(v.Line(r))
		body := strings.TrimLeft(row, pointers)
		if body == row || !strings.HasPrefix(body, " ") {
			continue
		}
		i := c.Index(func(o string) bool {
			return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(o), pointers)) == strings.TrimSpace(body)
		})
		if i >= 0 {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// A program may take a moment to close a question after its answer, and
// redraw it meanwhile (Gemini CLI 0.57 moves the highlight to the number
// pressed before it closes the dialog). In a replay that redrawn question
// is the one answered, not a new one, until its menu leaves the screen.

// answeredMenu is the menu of a question answered in a replay.
type answeredMenu struct {
	options []string
	command string
	prompt  string // the question: another one on the same menu is new ("(2/3) Stage this hunk")
}

// answering notes, in a replay, the menu of the question det about to be
// answered.
func (d *driver) answering(det *heuristics.Detection) {
	d.t.answered = nil
	if c, ok := heuristics.ReadChoices(d.screen); ok {
		d.t.answered = &answeredMenu{options: c.Options, command: det.Command, prompt: det.Prompt}
	}
}

// stillClosing reports that det is the question answered last, still on
// screen: its menu never left it since.
func (d *driver) stillClosing(det *heuristics.Detection) bool {
	a := d.t.answered
	if a == nil || det.Command != "" && a.command != "" && det.Command != a.command || det.Prompt != a.prompt {
		return false
	}
	if c, ok := heuristics.ReadChoices(d.screen); !ok || !slicesEqual(c.Options, a.options) {
		d.t.answered = nil
		return false
	}
	d.engine.Unfire(d.screen, det) // once it closed, a question like it is a new one
	d.tr.state(fmt.Sprintf("%q is the question just answered, not closed yet: not asked again", det.Prompt))
	return true
}

// noteClosed forgets the answered question once its menu left the screen.
func (d *driver) noteClosed() {
	if a := d.t.answered; a != nil {
		if c, ok := heuristics.ReadChoices(d.screen); !ok || !slicesEqual(c.Options, a.options) {
			d.t.answered = nil
		}
	}
}

// A person's key at a TUI's ready input box after which the program drew
// nothing new (Enter at the empty input box) changed nothing: in a replay
// it is theirs, neither an answer nor a difference.

// takeNoOps takes, in a replay, the next recorded key when its time has
// come, the screen shows the profile's ready input box and no dialog, and
// the screen after the key is the screen before it.
func (d *driver) takeNoOps() {
	rec := d.src.recording()
	ready := d.cfg.Profile.Ready
	if rec == nil || !d.inTurn() || !d.t.begun || ready == nil {
		return
	}
	switch d.st {
	case stateIdle, stateCapturing:
	default:
		return
	}
	in := rec.PendingInput()
	if in == "" || leadingViewKey(rec.view, in) != "" || rec.quitForm(in) != nil {
		return
	}
	at, ok := rec.nextInputAt()
	if !ok || at > d.now() || rec.noOpChecked == len(in) {
		return
	}
	rec.noOpChecked = len(in)
	k := in[:keyLen(in)]
	before := d.recordedScreen(0, nil).(*vt.Screen).String()
	if !ready.MatchString(before) {
		return
	}
	if dl, _ := heuristics.FindDialog(d.recordedScreen(0, nil)); dl != nil {
		return // a question is up
	}
	after := d.recordedScreen(len(k), nil).(*vt.Screen).String()
	if before != after {
		return
	}
	if err := rec.takeKeys(k); err != nil {
		return
	}
	d.tr.keys("no-op", "", []byte(k))
	d.tr.state("the recording's " + strconv.Quote(k) + " changed nothing on screen: the person's own, not an answer")
}

package driver

import (
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/transcript"
)

// turn is what belongs to one turn: a new turn is a new value (nextTurn),
// so nothing is reset by hand. Its deadlines are the table's per-turn
// rows (deadlines.go), cleared with it.
type turn struct {
	// answered is, in a replay, the menu of the question just answered
	// while it is still on screen (answer_read.go, stillClosing).
	answered *answeredMenu
	prompt   string // this turn's prompt: the program's start, or what yume-cli typed
	queued   string // a prompt waiting for the program's ready input box
	// boxPrompt is a prompt for a program no profile knows, typed where it
	// shows an empty input box (typeIntoBox), unless it asks first; boxSeen
	// is that box and since when it has not changed.
	boxPrompt string
	boxSeen   dialogSeen
	boxed     bool // the prompt went into a box read by its shape…
	boxRow    int  // …on this row
	// begun: the prompt was submitted (or the program started with it).
	// Nothing ends a turn by idle before it begins.
	begun bool
	// enterBy bounds the Enter after a typed prompt, which each output
	// moves on while the program draws the prompt (prompt.go).
	enterBy time.Duration
	// enterRecorded: a replay's Enter comes when the person pressed it,
	// not when the screen is still (prompt.go, recordedPrompt).
	enterRecorded bool

	pending *pending     // the question, while awaiting
	capture *capture     // the output, while capturing
	verdict verdict      // how the last question was decided
	retry   *retry       // keys the program may have dropped (retry.go)
	keying  *keying      // an answer typed one key at a time (keying.go)
	check   *answerCheck // what the program did after an answer (answer_check.go)

	suggestion string // last command a suggestion rule showed
	revision   string // feedback to type at the next input question
	revising   bool   // …once a revision was asked for
	// lastInput is the last input question yume-cli answered itself.
	lastInput *heuristics.Detection
	// answerMark is the absolute line after the last question answered:
	// a question's context starts there.
	answerMark uint64
	// noticed: the input questions already reported as the user's.
	noticed map[string]bool
	// runningDeferred counts looks put off while the program ran.
	runningDeferred int
	// settling is set from typing keys until the screen settles: the
	// program is still echoing and redrawing, so only a settled screen may
	// fire (an echoed "(y/N) n" must not look like a new question).
	settling bool
	// answeringUntil: a replay's person is still typing their answer.
	answeringUntil time.Duration
	// idleGen and stallGen are the screen generations the idle and stall
	// clocks started on (bounded.go).
	idleGen, stallGen uint64
	// stallCPU is the program's CPU time when the stall clock was set
	// while its session had not begun: more since then is work.
	stallCPU uint64
	dialog   dialogSeen // the dialog no rule knows on screen (dialog.go)
	asking   asking     // the question a rule reads on screen, settling (settle.go)
	nobody   nobodySeen // a question no rule knows and nobody can answer (unasked.go)
	log      turnLog    // what the transcript said of this turn
	lastText string     // the turn's answer so far
	// heldBack: a question fired and was put back to be answered later
	// (sameCallAgain): nothing more is evaluated on this screen.
	heldBack bool
	// usage is the tokens of the turn's model requests, as the session
	// log told them (usage.go).
	usage transcript.Tally
}

func newTurn(prompt string) *turn {
	return &turn{prompt: prompt, noticed: make(map[string]bool)}
}

// nextTurn replaces the turn that ended with a new one, and clears its
// deadlines.
func (d *driver) nextTurn() {
	d.t = newTurn("")
	d.at.clearTurn()
}

// verdict is how a question was decided.
type verdict int

const (
	undecided verdict = iota
	approved
	denied
)

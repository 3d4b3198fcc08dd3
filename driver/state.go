package driver

import "fmt"

// state is where the driver is in a turn. The code branches on it, and it
// changes only in to(), which checks the move against allowed.
type state int

const (
	stateIdle      state = iota // the program works on the turn; rules watch its screen
	stateAwaiting               // a question waits for the GUI's answer (turn.pending)
	stateCapturing              // an approved command runs; its output is collected (turn.capture)
	stateQuitting               // the turn is done; the program is being closed
	stateEnded                  // the turn has its result
	stateBetween                // a persistent session waits for the next prompt
	stateAnswering              // an answer's keys are typed one at a time (turn.keying)
)

var stateNames = [...]string{"idle", "awaiting_approval", "capturing", "quitting", "ended", "between_turns", "answering"}

func (s state) String() string { return stateNames[s] }

// allowed lists every move of the state machine.
var allowed = map[[2]state]bool{
	{stateIdle, stateAwaiting}: true, {stateIdle, stateCapturing}: true, {stateIdle, stateQuitting}: true,
	{stateAwaiting, stateIdle}: true, {stateAwaiting, stateCapturing}: true, {stateAwaiting, stateQuitting}: true,
	{stateCapturing, stateIdle}: true, {stateCapturing, stateAwaiting}: true, {stateCapturing, stateCapturing}: true,
	{stateCapturing, stateQuitting}: true,
	{stateIdle, stateEnded}:         true, {stateAwaiting, stateEnded}: true, {stateCapturing, stateEnded}: true,
	{stateQuitting, stateEnded}: true,
	{stateIdle, stateBetween}:   true, {stateAwaiting, stateBetween}: true, {stateCapturing, stateBetween}: true,
	{stateBetween, stateIdle}: true, {stateBetween, stateQuitting}: true, {stateBetween, stateEnded}: true,
	{stateIdle, stateAnswering}: true, {stateAwaiting, stateAnswering}: true, {stateCapturing, stateAnswering}: true,
	{stateAnswering, stateIdle}: true, {stateAnswering, stateCapturing}: true, {stateAnswering, stateQuitting}: true,
	{stateAnswering, stateEnded}: true, {stateAnswering, stateBetween}: true,
}

// to moves the driver to next, says why in the trace, and keeps the data
// of each state with it: a pending question only while awaiting, a
// capture only while capturing.
func (d *driver) to(next state, why string) {
	if !allowed[[2]state{d.st, next}] {
		d.setFault(fmt.Errorf("internal error: the driver moved from %s to %s (%s)", d.st, next, why))
	}
	if next != stateAwaiting {
		d.t.pending = nil
	}
	if next != stateCapturing && d.t.capture != nil {
		d.stopCapture()
	}
	if next != stateAnswering {
		d.t.keying = nil
	}
	d.tr.move(d.st, next, why)
	d.st = next
}

// inTurn reports whether a turn is running (not between turns of a
// persistent session, not over).
func (d *driver) inTurn() bool {
	return d.st == stateIdle || d.st == stateAwaiting || d.st == stateCapturing || d.st == stateAnswering
}

// toIdle ends a question or a capture: the program works on.
func (d *driver) toIdle(why string) {
	if d.st != stateIdle {
		d.to(stateIdle, why)
	}
}

package driver

import (
	"errors"
	"fmt"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/vt"
)

// state is where the driver is in a turn. The code branches on it, and it
// changes only in to(), which checks the move against allowed.
type state int

const (
	stateIdle      state = iota // the program works on the turn; rules watch its screen
	stateAwaiting               // a question waits for the GUI's answer (d.pending)
	stateCapturing              // an approved command runs; its output is collected (d.capture)
	stateQuitting               // the turn is done; the program is being closed
	stateEnded                  // the turn has its result
	stateBetween                // a persistent session waits for the next prompt
)

var stateNames = [...]string{"idle", "awaiting_approval", "capturing", "quitting", "ended", "between_turns"}

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
}

// to moves the driver to next, says why in the trace, and keeps the data
// of each state with it: a pending question only while awaiting, a
// capture only while capturing.
func (d *driver) to(next state, why string) {
	if !allowed[[2]state{d.st, next}] {
		d.setFault(fmt.Errorf("internal error: the driver moved from %s to %s (%s)", d.st, next, why))
	}
	if next != stateAwaiting {
		d.pending = nil
	}
	if next != stateCapturing && d.capture != nil {
		d.stopCapture()
	}
	d.tr.move(d.st, next, why)
	d.st = next
}

// pending is a question the GUI has not answered yet.
type pending struct {
	id    string
	n     int // the session's question number, from 1
	det   *heuristics.Detection
	tool  string // Claude's name for the call: Bash, or the record's
	input map[string]any
}

type driver struct {
	cfg    Config
	out    *emit.Writer
	screen *vt.Screen
	engine *heuristics.Engine
	src    source
	clock  clock
	policy *permission.Policy
	quiet  time.Duration
	tr     *tracer

	st      state
	pending *pending // the question, while awaiting
	// settled says how each question already decided was decided: a late
	// answer for one gets a notice, not an error.
	settled map[string]string
	// onceTyped: the input rules (once: true) that typed the prompt.
	onceTyped map[string]bool
	// runningDeferred counts looks put off while the program ran.
	runningDeferred int
	// noticed: the input questions already reported as the user's.
	noticed map[string]bool
	capture *capture // the output, while capturing
	// settling is set from typing keys until the screen settles: the
	// program is still echoing and redrawing, so only a settled screen may
	// fire (an echoed "(y/N) n" must not look like a new question).
	settling bool

	// Deadlines on the session clock (0 = none): rules that wait on the
	// cursor, the settled screen, the Enter after a pasted prompt, the
	// grace after the quit keys.
	soonAt, quietAt, enterAt, quitAt time.Duration
	// enterBy bounds enterAt, which is only ever the Enter after a typed
	// prompt: each output moves that Enter on, up to this.
	enterBy time.Duration
	// …and the next read of the record, the idle end, the turn's end.
	recordAt, idleAt, turnAt, stallAt time.Duration
	toolAt                            time.Duration // the running command's --tool-timeout
	answeringUntil                    time.Duration // a replay: the person's answer is still being typed
	answerMark                        uint64        // the absolute line after the last question answered
	submitAt                          time.Duration // look whether the prompt's Enter was taken
	submitGen                         uint64        // the screen generation the Enter was typed on
	submitRow                         int           // the cursor's row then
	submitLine                        string        // and that row's text: the input box with the prompt in it
	submits                           int           // Enters typed for this prompt
	idleGen, stallGen                 uint64        // the screen generations they were set on
	rec                               recordState
	deniedLast                        bool // the last question was denied: the program stops the turn

	suggestion string // last command a suggestion rule showed
	revision   string // feedback to type at the next input question
	revising   bool   // …once a revision was asked for
	decided    bool   // an earlier question was answered…
	approved   bool   // …and this was the answer (for follow-ups)
	// lastInput is the last question yume-cli answered itself, the keys it
	// typed, and how often it typed them again (inputPending).
	lastInput     *heuristics.Detection
	lastInputKeys heuristics.Keys
	inputRetries  int
	// answered is the last question answered with keys, while the program
	// may still drop them (answer.go).
	answered *answered
	lastText string
	texts    map[string]bool // assistant texts already emitted
	earlier  map[string]bool // earlier turns' answers, by answerKey
	queued   string          // a prompt waiting for the ready screen
	typed    string          // the last prompt typed (a persistent turn's)
	quitting int             // times the quit keys were typed
	// screenResults: the profile reads command output with result rules,
	// so lines leaving the screen are not captured (a TUI redraws).
	screenResults bool
	outcome       Outcome
	fault         error // a driver fault that ends the session
}

func newDriver(cfg Config, src source, clk clock) *driver {
	cols, rows := cfg.Cols, cfg.Rows
	if cols <= 0 || rows <= 0 {
		cols, rows = 120, 40
	}
	d := &driver{
		cfg:       cfg,
		out:       cfg.Out,
		screen:    vt.NewScreen(cols, rows),
		engine:    heuristics.NewEngine(cfg.Profile),
		src:       src,
		clock:     clk,
		policy:    permission.New(cfg.Mode, src.canAsk()),
		quiet:     cfg.Quiet,
		texts:     make(map[string]bool),
		settled:   make(map[string]string),
		onceTyped: make(map[string]bool),
		noticed:   make(map[string]bool),
	}
	if cfg.Dangers != nil {
		d.policy.SetDangers(cfg.Dangers)
	}
	d.screenResults = readsResults(cfg.Profile)
	d.earlier = make(map[string]bool)
	for _, a := range cfg.EarlierAnswers {
		d.rememberAnswer(a)
	}
	if d.quiet <= 0 {
		d.quiet = cfg.Profile.Settle()
	}
	if d.cfg.IdleTimeout <= 0 {
		d.cfg.IdleTimeout = DefaultIdleTimeout
	}
	if d.cfg.TurnTimeout <= 0 {
		d.cfg.TurnTimeout = DefaultTurnTimeout
	}
	if d.cfg.ToolTimeout <= 0 {
		d.cfg.ToolTimeout = DefaultToolTimeout
	}
	d.turnAt = d.cfg.TurnTimeout
	if cfg.Persistent && cfg.Prompt == "" {
		d.st, d.turnAt = stateBetween, 0 // the first user frame starts the first turn
	}
	if cfg.Record != nil {
		d.recordAt = recordEvery
	}
	d.screen.SetScrollbackLimit(scrollbackNeeded(cfg.Profile))
	d.tr = newTracer(cfg.Trace, d)
	d.screen.SetReplyWriter(replyWriter{d})
	return d
}

// scrollbackNeeded is how many retired lines the profile's rules read:
// keeping none spares the screen's hot path the text of every line.
func scrollbackNeeded(p *heuristics.Profile) int {
	n := 0
	for _, r := range p.Rules {
		if r.Look.Area == heuristics.AreaTranscript {
			n = max(n, r.Look.N)
		}
	}
	return n
}

// now is the session clock.
func (d *driver) now() time.Duration { return d.clock.now() }

// setFault records the first driver fault; the session ends on it.
func (d *driver) setFault(err error) {
	if d.fault == nil {
		d.fault = err
	}
}

// feed writes output to the screen and schedules evaluation after it.
func (d *driver) feed(data []byte) {
	d.screen.Write(data)
	d.printedAt(d.now())
}

// printedAt schedules the evaluations that wait for output printed at t
// to pause.
func (d *driver) printedAt(t time.Duration) {
	d.soonAt, d.quietAt = t+soon, t+d.quiet
	if d.enterAt != 0 {
		d.enterAt = min(t+d.enterDelay(), d.enterBy)
	}
}

// deadline is the next time something is due, or 0.
func (d *driver) deadline() time.Duration {
	var next time.Duration
	for _, at := range []time.Duration{d.soonAt, d.quietAt, d.quitAt, d.enterAt, d.submitAt, d.recordAt, d.idleAt, d.turnAt, d.stallAt, d.toolAt} {
		if at != 0 && (next == 0 || at < next) {
			next = at
		}
	}
	return next
}

// advance runs the evaluations due by time t, in order, each at its own
// time on the clock.
func (d *driver) advance(t time.Duration) {
	if d.soonAt != 0 && d.soonAt <= t && d.st != stateEnded {
		d.clock.reach(d.soonAt)
		d.soonAt = 0
		d.evaluate(false)
	}
	if d.quietAt != 0 && d.quietAt <= t && d.st != stateEnded {
		d.clock.reach(d.quietAt)
		d.quietAt = 0
		d.evaluate(true)
	}
	if d.enterAt != 0 && d.enterAt <= t && d.st != stateEnded {
		d.clock.reach(d.enterAt)
		d.enterAt = 0
		d.submitPrompt()
	}
	if d.submitAt != 0 && d.submitAt <= t && d.st != stateEnded {
		d.clock.reach(d.submitAt)
		d.submitAt = 0
		d.submitLost()
	}
	if d.quitAt != 0 && d.quitAt <= t && d.st != stateEnded {
		d.quitTimer()
	}
	if d.recordAt != 0 && d.recordAt <= t && d.st != stateEnded {
		d.clock.reach(d.recordAt)
		d.recordAt = d.now() + recordEvery
		d.pollRecord()
	}
	if d.idleAt != 0 && d.idleAt <= t && d.st != stateEnded {
		d.clock.reach(d.idleAt)
		d.idleAt = 0
		d.idleEnd()
	}
	if d.stallAt != 0 && d.stallAt <= t && d.st != stateEnded {
		d.clock.reach(d.stallAt)
		d.stallAt = 0
		d.stalled()
	}
	if d.toolAt != 0 && d.toolAt <= t && d.st != stateEnded {
		d.clock.reach(d.toolAt)
		d.toolAt = 0
		d.toolTimeout()
	}
	if d.turnAt != 0 && d.turnAt <= t && d.st != stateEnded {
		d.clock.reach(d.turnAt)
		d.turnTimeout()
	}
	d.clock.reach(t)
}

// enterKey submits a typed prompt.
var enterKey, _ = heuristics.ParseKeys("<Enter>")

// startCapture begins collecting a command's output. Lines leaving the
// screen are turned into text only while a capture runs: the screen's hot
// path stays free of it otherwise.
func (d *driver) startCapture(c *capture) {
	d.to(stateCapturing, "capturing the output of "+c.id)
	d.capture = c
	d.toolAt = d.now() + d.cfg.ToolTimeout
	if !d.screenResults {
		d.screen.OnRetire(d.onRetire)
	}
}

// stopCapture detaches the capture; to() calls it when capturing ends.
func (d *driver) stopCapture() *capture {
	c := d.capture
	d.capture, d.toolAt = nil, 0
	d.screen.OnRetire(nil)
	return c
}

// onRetire receives every line that leaves the visible screen, in order;
// Retired already counts it.
func (d *driver) onRetire(line string) {
	if c := d.capture; c != nil && d.screen.Retired()-1 >= c.mark {
		c.add(line)
	}
}

// replyWriter sends the screen's answers to terminal queries to the child.
type replyWriter struct{ d *driver }

func (w replyWriter) Write(p []byte) (int, error) {
	w.d.tr.keys("reply", "", p)
	n, err := w.d.cfg.Term.Write(p)
	w.d.keyFault("terminal query reply", "", err)
	return n, err
}

// keyFault ends a replay whose typed keys differ from the recording's; a
// live program that no longer reads its terminal is not a fault.
func (d *driver) keyFault(why, rule string, err error) {
	var m *KeyMismatch
	if errors.As(err, &m) {
		d.setFault(&KeysError{Rule: rule, Why: why, Err: m.Err, Screen: d.screen.String()})
	}
}

// emitErr records a failure to write stdout: nobody is listening, so the
// session ends.
func (d *driver) emitErr(err error) {
	if err != nil {
		d.setFault(fmt.Errorf("writing events: %w", err))
	}
}

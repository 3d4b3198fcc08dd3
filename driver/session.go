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

// driver is the session: what lives across turns. What belongs to one
// turn is in t, a new value each turn.
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

	st  state
	at  deadlines // when each timer is due (deadlines.go)
	t   *turn     // the running turn, or the last one between turns
	log transcriptState
	// quits counts the times the quit keys were typed, quitStopped says
	// the program was stopped after them (quit.go).
	quits       int
	quitStopped bool
	// settled says how each question already decided was decided: a late
	// answer for one gets a notice, not an error.
	settled map[string]string
	// onceTyped: the input rules (once: true) that typed the prompt.
	onceTyped map[string]bool
	texts     map[string]bool // assistant texts already emitted
	earlier   map[string]bool // earlier turns' answers, by answerKey
	// screenResults: the profile reads command output with result rules,
	// so lines leaving the screen are not captured (a TUI redraws).
	screenResults bool
	outcome       Outcome
	lastOutput    time.Duration // when the program last printed (a still screen since)
	drew          bool          // the program printed at all
	fault         error         // a driver fault that ends the session
	merr          modelErrors   // the running turn's model errors (modelerror.go)
	// startLines: the screen keeps what scrolls off while the program
	// starts, for the words of a failed start (startfail.go).
	startLines bool
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
		earlier:   make(map[string]bool),
	}
	if cfg.Dangers != nil {
		d.policy.SetDangers(cfg.Dangers)
	}
	d.policy.SetFallback(cfg.NoChannel)
	d.screenResults = readsResults(cfg.Profile)
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
	if cfg.Persistent && cfg.Prompt == "" {
		// The first user frame starts the first turn.
		d.t = newTurn("")
		d.st = stateBetween
	} else {
		// The program was started with its prompt (or needs none), or an
		// input rule types it: the turn runs from the start.
		d.t = newTurn(cfg.Prompt)
		d.t.begun = true
		switch {
		case cfg.TypePrompt && cfg.Prompt != "" && cfg.Profile.Ready != nil:
			d.t.queued, d.t.begun = cfg.Prompt, false // typed at the ready input box
		case cfg.TypePrompt && cfg.Prompt != "":
			d.t.boxPrompt = cfg.Prompt // typed at an input box read by its shape, if one shows
		}
		d.at[timerTurn] = d.cfg.TurnTimeout
	}
	if cfg.Transcript != nil {
		d.at[timerLog] = logEvery
	}
	d.keepStartLines() // then only what the rules read (scrollbackNeeded)
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

// feed writes a replay's output to the screen and schedules evaluation
// after it (live output comes parsed).
func (d *driver) feed(data []byte) {
	d.screen.Write(data)
	d.printedAt(d.now())
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

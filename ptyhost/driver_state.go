package ptyhost

import (
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
)

// state is where the driver is in idle → awaiting → answering → capturing.
type state string

const (
	stateIdle      state = "idle"
	stateAwaiting  state = "awaiting_approval"
	stateAnswering state = "answering"
	stateCapturing state = "capturing"
)

// pending is a question the GUI has not answered yet.
type pending struct {
	id    string
	det   *heuristics.Detection
	input map[string]any
}

type driver struct {
	cfg      DriverConfig
	out      *emit.Writer
	screen   *heuristics.Screen
	engine   *heuristics.Engine
	controls <-chan emit.Control
	noChan   bool // the control channel is absent or closed
	mode     PermissionMode
	live     bool
	quiet    time.Duration
	tr       *tracer

	start        time.Time     // wall clock origin (live)
	vnow         time.Duration // virtual clock (replay)
	soonAt       time.Duration // 0 = not scheduled
	quietAt      time.Duration
	quitAt       time.Duration // retype the quit keys (driver_tui.go)
	enterAt      time.Duration // submit a pasted prompt
	timer        *time.Timer
	timerPending bool

	pending    *pending
	capture    *capture
	suggestion string // last command a suggestion rule showed
	revision   string // feedback to type at the next input question
	// answering is set from typing keys until the screen settles: the
	// program is still echoing and redrawing, so only a settled screen may
	// fire (an echoed "(y/N) n" must not look like a new question).
	answering bool
	// lastInput is the last question yume-cli answered itself, the keys it
	// typed, and how often it typed them again (inputPending).
	lastInput     *heuristics.Detection
	lastInputKeys heuristics.Keys
	inputRetries  int
	revising      bool // …once a revision was asked for
	decided       bool // an earlier question was answered…
	approved      bool // …and this was the answer
	lastText      string
	texts         map[string]bool // assistant texts already emitted
	queued        string          // a prompt waiting for the ready screen
	quitting      int             // times the quit keys were typed
	// screenResults: the profile reads command output with result rules,
	// so lines leaving the screen are not captured (a TUI redraws).
	screenResults bool
	outcome       Outcome
	fault         error // a driver fault that ends the session
	ended         bool  // the turn already has its result
}

func newDriver(cfg DriverConfig) *driver {
	cols, rows := cfg.Cols, cfg.Rows
	if cols <= 0 || rows <= 0 {
		cols, rows = 120, 40
	}
	d := &driver{
		cfg:      cfg,
		out:      cfg.Out,
		screen:   heuristics.NewScreen(cols, rows),
		engine:   heuristics.NewEngine(cfg.Profile),
		controls: cfg.Controls,
		noChan:   cfg.Controls == nil && cfg.Decide == nil,
		mode:     cfg.Mode,
		live:     cfg.Term.Live(),
		quiet:    cfg.Quiet,
		start:    time.Now(),
		texts:    make(map[string]bool),
	}
	d.screenResults = readsResults(cfg.Profile)
	if d.mode == "" {
		d.mode = ModeDefault
	}
	if d.quiet <= 0 {
		d.quiet = cfg.Profile.Settle()
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

// now is the session clock: wall time live, recorded time in a replay.
func (d *driver) now() time.Duration {
	if d.live {
		return time.Since(d.start)
	}
	return d.vnow
}

func (d *driver) state() state {
	switch {
	case d.pending != nil:
		return stateAwaiting
	case d.answering:
		return stateAnswering
	case d.capture != nil:
		return stateCapturing
	}
	return stateIdle
}

// feed gives the screen a chunk and schedules evaluation after it.
func (d *driver) feed(c chunk) {
	d.feedBytes(c.data, c.at)
	releaseChunk(c.data)
}

// feedBytes writes output that arrived at time at to the screen.
func (d *driver) feedBytes(data []byte, at time.Duration) {
	if !d.live {
		d.vnow = at
	}
	d.screen.Write(data)
	t := d.now()
	d.soonAt, d.quietAt = t+soon, t+d.quiet
	d.armTimer()
}

// advance runs the evaluations due by time t, in order.
func (d *driver) advance(t time.Duration) {
	if d.soonAt != 0 && d.soonAt <= t && !d.ended {
		if !d.live {
			d.vnow = d.soonAt
		}
		d.soonAt = 0
		d.evaluate(false)
	}
	if d.quietAt != 0 && d.quietAt <= t && !d.ended {
		if !d.live {
			d.vnow = d.quietAt
		}
		d.quietAt = 0
		d.evaluate(true)
	}
	if d.enterAt != 0 && d.enterAt <= t && !d.ended {
		d.enterAt = 0
		d.send(&heuristics.Rule{Name: "prompt"}, "submit prompt", enterKey)
	}
	if d.quitAt != 0 && d.quitAt <= t && !d.ended {
		d.quitTimer()
	}
	if !d.live && t > d.vnow {
		d.vnow = t
	}
	d.armTimer()
}

// enterKey submits a typed prompt.
var enterKey, _ = heuristics.ParseKeys("<Enter>")

// armTimer points the one live timer at the next deadline.
func (d *driver) armTimer() {
	if !d.live {
		return
	}
	var next time.Duration
	for _, at := range []time.Duration{d.soonAt, d.quietAt, d.quitAt, d.enterAt} {
		if at != 0 && (next == 0 || at < next) {
			next = at
		}
	}
	if next == 0 {
		d.timerPending = false
		return
	}
	wait := next - d.now()
	if d.timer == nil {
		d.timer = time.NewTimer(wait)
	} else {
		d.timer.Reset(wait) // Go ≥1.23: Reset drains a fired timer
	}
	d.timerPending = true
}

func (d *driver) timerC() <-chan time.Time {
	if d.timer == nil || !d.timerPending {
		return nil
	}
	return d.timer.C
}

func (d *driver) stopTimer() {
	if d.timer != nil {
		d.timer.Stop()
	}
}

// startCapture begins collecting a command's output. Lines leaving the
// screen are turned into text only while a capture runs: the screen's hot
// path stays free of it otherwise.
func (d *driver) startCapture(c *capture) {
	d.capture = c
	if !d.screenResults {
		d.screen.OnRetire(d.onRetire)
	}
}

func (d *driver) stopCapture() *capture {
	c := d.capture
	d.capture = nil
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
	if err != nil && !w.d.live && w.d.fault == nil {
		w.d.fault = &KeysError{Why: "terminal query reply", Err: err, Screen: w.d.screen.String()}
	}
	return n, err
}

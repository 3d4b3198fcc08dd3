package driver

import (
	"bytes"
	"context"
	"sort"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/vt"
)

// Recorded is a recording played back on a virtual clock, as
// recordings.Replay is (ptyhost does not import recordings: the arrows
// point from the commands and tests to both).
type Recorded interface {
	// ReadChunk returns the next recorded output and its recorded time.
	ReadChunk() ([]byte, time.Duration, error)
	// Write compares typed keys with the recorded input.
	Write(p []byte) (int, error)
	// Size is the recorded window size at the current position.
	Size() (cols, rows int)
	// ExitCode is how the recorded program ended.
	ExitCode() (code int, signal string)
	// PendingInput is the recorded input not typed yet.
	PendingInput() string
	// Close ends the playback.
	Close() error
}

// Script is a replay's stand-in for the GUI: it answers question n (from
// 1) at once, since nobody waits on a virtual clock, and may interrupt the
// session as a user would.
type Script struct {
	// Answer decides question n; nil approves every question.
	Answer func(n int, d *heuristics.Detection) permission.Answer
	// InterruptAt interrupts the session when the first recorded output at
	// or after this time arrives; 0 means never.
	InterruptAt time.Duration
	// AsRecorded answers each question the way the recording did (its
	// keys read for what they mean), instead of Answer.
	AsRecorded bool
	// Log is the provider's transcript the recording holds (nil: none):
	// the replay reads it as the live driver did (cfg.Transcript).
	Log *RecordedTranscript
	// AnswerAfter is how long the GUI takes to answer on the recording's
	// clock (0: at once): output recorded before then reaches the screen
	// first, as a program's redraws do while a person reads its question.
	AnswerAfter time.Duration
}

// Replay drives a recording through the production driver in lock step:
// every recorded chunk is fed only after the evaluations due before its
// time ran, so a rule sees exactly the screens a live driver would have
// seen after the same pauses, and the keys it types are compared with the
// recorded keys at the same point of the session. cfg.Term and
// cfg.Controls are ignored: the recording is the terminal and script the GUI;
// cfg.Transcript is script.Log.
//
// Writes that are terminal-query replies (StripQueryReplies) are not
// compared: strip them from the recorded input too before building rec.
func Replay(ctx context.Context, cfg Config, rec Recorded, script Script) (Outcome, error) {
	quit, _ := cfg.Profile.Quit.Encode(nil)
	src := &replaySource{replayTerm: &replayTerm{rec: rec, quit: quit, quits: quitForms(cfg.Profile), view: viewKeys(cfg.Profile)}, script: script, clock: &virtualClock{}}
	cfg.Term = src.replayTerm
	if script.Log != nil {
		cfg.Transcript = &replayLog{log: script.Log, clock: src.clock, nextInput: src.nextInputAt}
	}
	d := newDriver(cfg, src, src.clock)
	src.beforeRead = func() {
		d.takeViewKeys()
		d.takeLeaving()
		d.takeNoOps()
	}
	if script.Log != nil {
		d.at[timerLog] = d.nextLogRead()
	}
	return d.run(ctx)
}

// replayTerm is a recording as the driver's terminal.
type replayTerm struct {
	rec  Recorded
	quit []byte // the profile's quit keys: a person's leaving, not a turn's input
	// quits are the keys that leave the program: quit and quit_also.
	quits [][]byte
	view  []string // the profile's keys that only change the view (viewKeys)
	// skipped: the last optional answer was not in the recording (the
	// person never typed the driver's own keys), so nothing waits for it.
	skipped bool
	// noOpChecked is the pending input's length when its next key was
	// last found to change the screen (takeNoOps); 0: none.
	noOpChecked int
}

func (t *replayTerm) ReadChunk() ([]byte, time.Duration, error) { return t.rec.ReadChunk() }

// Write passes keys on for comparison and drops query replies: a human
// recording holds the replies of the person's terminal, which differ from
// the screen model's, and both are a function of the screen, not a rule.
// A difference is a *KeyMismatch.
func (t *replayTerm) Write(p []byte) (int, error) {
	keys := vt.StripQueryReplies(p)
	if len(keys) == 0 {
		return len(p), nil
	}
	if len(t.quit) > 0 && bytes.Equal(keys, t.quit) {
		in := t.rec.PendingInput()
		if in == "" {
			// The quit keys typed again while the program leaves: the
			// person pressed them as often as their program needed, and
			// typed nothing else; more of them answer nothing.
			return len(p), nil
		}
		if f := t.quitForm(in); f != nil {
			// The person left another way the program has (Ctrl-D,
			// "/exit"): the same as its quit keys.
			return t.WriteAnswer(p, [][]byte{f}, false, false)
		}
	}
	if _, err := t.rec.Write(keys); err != nil {
		return 0, &KeyMismatch{Err: err}
	}
	return len(p), nil
}

// WriteAnswer compares an answer by its meaning when the recording can
// (recordings.Replay.WriteAnswer), else by its bytes.
func (t *replayTerm) WriteAnswer(p []byte, also [][]byte, anyLine, optional bool) (int, error) {
	w, ok := t.rec.(answerWriter)
	if !ok {
		return t.Write(p)
	}
	if leadingViewKey(t.view, string(p)) == "" {
		t.skipView() // the person looked before answering
	}
	before := len(t.rec.PendingInput())
	if _, err := w.WriteAnswer(p, also, anyLine, optional); err != nil {
		return 0, &KeyMismatch{Err: err}
	}
	t.skipped = optional && len(t.rec.PendingInput()) == before
	return len(p), nil
}

// TypedUntil passes on the recorded time of the last key answers took.
func (t *replayTerm) TypedUntil() time.Duration {
	if w, ok := t.rec.(answerWriter); ok {
		return w.TypedUntil()
	}
	return 0
}

// Resize is accepted and ignored: the recorded program drew for the
// recorded size, which the replay source follows.
func (t *replayTerm) Resize(cols, rows int) error { return nil }

func (t *replayTerm) Wait() (ptyhost.ExitStatus, error) {
	code, sig := t.rec.ExitCode()
	return ptyhost.ExitStatus{Code: code, Signal: sig}, nil
}

func (t *replayTerm) Close() error { return t.rec.Close() }

// RecordedPrompt is what the recording typed next, up to its Enter: the
// text an input rule types for <Prompt> when the replay was given none, so
// a prompt a person typed is not mistaken for a wrong rule.
func (t *replayTerm) RecordedPrompt() string {
	in := t.rec.PendingInput()
	if i := bytes.IndexAny([]byte(in), "\r\n"); i >= 0 {
		return in[:i]
	}
	return in
}

// PendingInput is the recorded input not typed yet.
func (t *replayTerm) PendingInput() string { return t.rec.PendingInput() }

// inputToCome reports recorded input not typed yet (nor skipped) that
// belongs to the turn: the person has more to type in it. The profile's
// quit keys come after the turn (a person leaving the program once it
// answered), so they are not the turn's.
func (t *replayTerm) inputToCome() bool {
	in := t.rec.PendingInput()
	return in != "" && t.quitForm(in) == nil
}

// quitForm is the way of leaving the program (quits) that in starts with;
// nil for none.
func (t *replayTerm) quitForm(in string) []byte {
	for _, f := range t.quits {
		if keysPrefix([]byte(in), f) {
			return f
		}
	}
	return nil
}

// quitForms are the keys that leave p's program: its quit keys and the
// other ways it has (quit_also), longest first.
func quitForms(p *heuristics.Profile) [][]byte {
	var out [][]byte
	for _, k := range append([]heuristics.Keys{p.Quit}, p.QuitAlso...) {
		if b, err := k.Encode(nil); err == nil && len(b) > 0 {
			out = append(out, b)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// OnlyQuits reports whether in (a recording's input no rule typed) is
// nothing but p's ways of leaving its program, one or more times: a
// person pressing Ctrl-C once more than their program needed, or
// yume-cli's own quit typed on more screens than a replay has.
func OnlyQuits(p *heuristics.Profile, in string) bool {
	forms := quitForms(p)
	for in != "" {
		n := 0
		for _, f := range forms {
			if keysPrefix([]byte(in), f) {
				n = len(f)
				break
			}
		}
		if n == 0 {
			return false
		}
		in = in[n:]
	}
	return len(forms) > 0
}

// recordedAnswer is how the recording answered p: its next keys read for
// what they mean (the deny keys or an equivalent, the revise keys, Ctrl-C
// or Esc at a menu), approval otherwise.
func (d *driver) recordedAnswer(p *pending) permission.Answer {
	rec := d.src.recording()
	if p == nil || rec == nil {
		return permission.Answer{Allow: true}
	}
	in := rec.PendingInput()
	next := []byte(in[len(viewPrefix(rec.view, in)):]) // the person may look first
	r := p.det.Rule
	if b, err := r.Revise.Encode(d.screen); err == nil && len(b) > 0 && keysPrefix(next, b) {
		return permission.Answer{Revise: true}
	}
	if a, ok := d.readAnswer(p.det); ok && a.means != meansOther {
		d.tr.state("the recording's answer, read for its meaning: " + a.why + " (" + a.means + ")")
		return permission.Answer{Allow: a.means == meansApprove}
	}
	switch _, means := d.walkedAnswer(); means {
	case "approve":
		return permission.Answer{Allow: true}
	case "deny":
		return permission.Answer{}
	}
	forms := d.equivalentsOf(p.det, "deny", false).also
	if b, err := r.Deny.Encode(d.screen); err == nil && len(b) > 0 {
		forms = append(forms, b)
	}
	for _, f := range forms {
		if keysPrefix(next, f) {
			return permission.Answer{}
		}
	}
	if len(next) > 0 && (next[0] == 0x03 || keysPrefix(next, []byte{0x1b})) {
		return permission.Answer{} // leaving the question
	}
	return permission.Answer{Allow: true}
}

// KeyMismatch is a write the recording did not expect: the keys a rule
// typed differ from what the recorded session typed there.
type KeyMismatch struct{ Err error }

func (e *KeyMismatch) Error() string { return e.Err.Error() }
func (e *KeyMismatch) Unwrap() error { return e.Err }

// replaySource plays a recording on a virtual clock, in one goroutine.
// It holds the next recorded chunk back until every deadline before it has
// passed, so the driver evaluates, asks and types at the times a live
// driver would have, before the output that followed.
type replaySource struct {
	*replayTerm // the recording, whose input the rules' keys meet
	script      Script
	clock       *virtualClock
	held        *event // the next recorded chunk, not delivered yet
	interrupted bool
	// heldDone is a done rule's detection held back until heldUntil, the
	// recorded time of the person's next keys of the turn (turnGoesOn).
	heldDone  *heuristics.Detection
	heldUntil time.Duration
	// askedID is the question waiting for the script's answer since
	// askedAt (Script.AnswerAfter).
	askedID string
	askedAt time.Duration
	// viewGen is the screen's generation when the person's last view key
	// was played, until the screen changes after it (0: none pending): a
	// done rule waits for the view the key leads to.
	viewGen uint64
	// beforeRead plays the person's own keys due by now (takeViewKeys)
	// before the next chunk is read: reading it reports the input
	// recorded before the chunk just delivered that nothing typed.
	beforeRead func()
}

func (s *replaySource) next(ctx context.Context, deadline time.Duration, waiting *pending) event {
	if waiting != nil && s.answerDue(waiting, deadline) { // the recorded program waited for its answer too
		a := permission.Answer{Allow: true}
		if s.script.Answer != nil {
			a = s.script.Answer(waiting.n, waiting.det)
		}
		return event{kind: evAnswer, at: s.clock.now(), answer: a, asRecorded: s.script.AsRecorded}
	}
	e := *s.peek()
	switch {
	case deadline != 0 && deadline <= e.at:
		return event{kind: evTimer, at: deadline}
	case s.script.InterruptAt > 0 && e.at >= s.script.InterruptAt && !s.interrupted:
		s.interrupted = true
		return event{kind: evControl, at: e.at, ok: true, control: emit.Control{Kind: emit.ControlInterrupt}}
	case ctx.Err() != nil:
		return event{kind: evCancel, at: e.at}
	}
	s.held = nil
	if e.err != nil {
		e.kind = evEnd
	} else {
		e.cols, e.rows = s.rec.Size()
	}
	return e
}

// peek is the next recorded chunk, read but not delivered.
func (s *replaySource) peek() *event {
	if s.held == nil {
		if s.beforeRead != nil {
			s.beforeRead()
		}
		data, at, err := s.ReadChunk()
		s.held = &event{kind: evOutput, at: at, data: data, err: err}
	}
	return s.held
}

// answerDue: the GUI answers waiting now: the script's AnswerAfter since
// it was asked has passed, or nothing (output, a timer) comes before.
func (s *replaySource) answerDue(waiting *pending, deadline time.Duration) bool {
	if s.script.AnswerAfter <= 0 {
		return true
	}
	if s.askedID != waiting.id {
		s.askedID, s.askedAt = waiting.id, s.clock.now()
	}
	due := s.askedAt + s.script.AnswerAfter
	if e := s.peek(); e.err == nil && e.at < due || deadline != 0 && deadline < due {
		return false // what comes first, first
	}
	s.clock.reach(due)
	return true
}

func (s *replaySource) canAsk() bool { return true }

func (s *replaySource) stop() {}

// blockedOnKeys is false: a recording cannot say that its program read
// its terminal; a person typing at a screen says it (checkUnasked).
func (s *replaySource) blockedOnKeys() bool { return false }

// onCPU is false: a recording does not say.
func (s *replaySource) onCPU() bool { return false }

// cpuTime is unknown: a recording does not say.
func (s *replaySource) cpuTime() (uint64, bool) { return 0, false }

// keyWaiters and tookKeys: a recording does not say.
func (s *replaySource) keyWaiters() ptyhost.Waiters                 { return ptyhost.Waiters{} }
func (s *replaySource) tookKeys(ptyhost.Waiters) (took, known bool) { return false, false }

// readsKeys: a recording does not say.
func (s *replaySource) readsKeys() (reads, known bool) { return false, false }

// expectKeys: a recording does not say either.
func (s *replaySource) expectKeys() {}

// recording is the recording played, whose input the rules' keys meet.
func (s *replaySource) recording() *replaySource { return s }

// takeKeys consumes keys the recording typed itself (a person's prompt),
// which are theirs, not a rule's.
func (t *replayTerm) takeKeys(keys string) error {
	_, err := t.WriteAnswer([]byte(keys), nil, false, false)
	return err
}

// nextInputAt is the recorded time of the next input not typed yet
// (recordings.Replay.NextInputAt); false when none is left or the
// recording cannot say.
func (t *replayTerm) nextInputAt() (time.Duration, bool) {
	if r, ok := t.rec.(interface{ NextInputAt() (time.Duration, bool) }); ok {
		return r.NextInputAt()
	}
	return 0, false
}

// keysPrefix reports whether recorded input in starts with keys, key by
// key: a lone Esc is not the start of an arrow key (ESC [ B). As
// recordings.KeysPrefix (the driver does not import recordings).
func keysPrefix(in, keys []byte) bool {
	if !bytes.HasPrefix(in, keys) {
		return false
	}
	n := len(keys)
	return n == 0 || keys[n-1] != 0x1b || n == len(in) || in[n] != '[' && in[n] != 'O'
}

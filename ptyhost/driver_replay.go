package ptyhost

import (
	"bytes"
	"context"
	"time"
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

// NewReplayTerminal makes a recording the driver's terminal. The driver then
// runs in lock step with it (see Drive): every recorded chunk is read only
// after the evaluations due before it ran, so the keys the rules type are
// compared with the recorded keys at the same point of the session.
//
// Writes that are terminal-query replies (StripQueryReplies) are not
// compared: strip them from the recorded input too before building rec.
func NewReplayTerminal(rec Recorded) Terminal { return &replayTerm{rec: rec} }

type replayTerm struct{ rec Recorded }

func (t *replayTerm) ReadChunk() ([]byte, time.Duration, error) { return t.rec.ReadChunk() }

// Write passes keys on for comparison and drops query replies: a human
// recording holds the replies of the person's terminal, which differ from
// the screen model's, and both are a function of the screen, not a rule.
func (t *replayTerm) Write(p []byte) (int, error) {
	keys := StripQueryReplies(p)
	if len(keys) == 0 {
		return len(p), nil
	}
	if _, err := t.rec.Write(keys); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Resize is accepted and ignored: the recorded program drew for the
// recorded size, which Size reports.
func (t *replayTerm) Resize(cols, rows int) error { return nil }

func (t *replayTerm) Wait() (ExitStatus, error) {
	code, sig := t.rec.ExitCode()
	return ExitStatus{Code: code, Signal: sig}, nil
}

func (t *replayTerm) Close() error { return t.rec.Close() }

func (t *replayTerm) Live() bool { return false }

// Size lets the replay loop follow the recorded window size.
func (t *replayTerm) Size() (cols, rows int) { return t.rec.Size() }

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

// replay is Drive for a terminal that is not live: one goroutine, no
// timers. Before each recorded chunk is fed, the evaluations due before its
// time run (advance), so a rule sees exactly the screens a live driver
// would have seen after the same pauses. A question waiting for Controls
// blocks the playback until it is answered, as the recorded program
// waited for its answer.
func (d *driver) replay(ctx context.Context) (Outcome, error) {
	sized, _ := d.cfg.Term.(interface{ Size() (int, int) })
	for {
		if d.pending != nil && d.controls != nil {
			select {
			case f, ok := <-d.controls:
				d.control(f, ok)
			case <-ctx.Done():
				d.interrupt("interrupted: yume-cli received a signal")
			}
		} else if done, err := d.replayChunk(ctx, sized); done {
			return d.outcome, err
		}
		if d.fault != nil || d.ended {
			return d.finishEarly()
		}
	}
}

// replayChunk reads and feeds one recorded chunk; done reports that the
// recording ended and the session with it.
func (d *driver) replayChunk(ctx context.Context, sized interface{ Size() (int, int) }) (done bool, err error) {
	data, at, rerr := d.cfg.Term.ReadChunk()
	d.advance(at)
	if d.fault != nil || d.ended {
		return false, nil
	}
	switch {
	case d.cfg.InterruptAt > 0 && at >= d.cfg.InterruptAt:
		d.interrupt("interrupted by the user")
	case ctx.Err() != nil:
		d.interrupt("interrupted: yume-cli received a signal")
	case rerr != nil:
		_, err = d.finishExit(rerr)
		return true, err
	default:
		if sized != nil {
			if c, r := sized.Size(); c != d.screen.Cols() || r != d.screen.Rows() {
				d.screen.Resize(c, r)
			}
		}
		d.feedBytes(data, at)
	}
	return false, nil
}

// recordedPrompt is the replayed recording's own prompt text, or "".
func (d *driver) recordedPrompt() string {
	if p, ok := d.cfg.Term.(interface{ RecordedPrompt() string }); ok && !d.live {
		return p.RecordedPrompt()
	}
	return ""
}

// StripQueryReplies returns p without the answers a terminal sends to a
// program's queries, which no person types: cursor position (CSI row;col R,
// CSI ? row;col R), status (CSI Ps n, CSI ? Ps n), device attributes
// (CSI ? … c, CSI > … c), keyboard flags (CSI ? … u), mode reports
// (CSI … $ y), window reports (CSI 4|6|8|9 ; … t), and every OSC and DCS
// string (colours, XTVERSION, DECRQSS). Everything else is kept, so keys
// survive. A key that looks exactly like a reply (Shift-F3 is CSI 1;2R in
// xterm) is dropped too; no rule types one.
func StripQueryReplies(p []byte) []byte {
	if !bytes.ContainsAny(p, "\x1b") {
		return p
	}
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); {
		if n := replyLen(p[i:]); n > 0 {
			i += n
			continue
		}
		out = append(out, p[i])
		i++
	}
	return out
}

// replyLen is the length of the query reply at the start of p, or 0.
func replyLen(p []byte) int {
	if len(p) < 3 || p[0] != 0x1b {
		return 0
	}
	switch p[1] {
	case ']', 'P': // OSC, DCS: up to BEL (OSC only) or ST
		for i := 2; i < len(p); i++ {
			switch {
			case p[i] == 0x07 && p[1] == ']':
				return i + 1
			case p[i] == 0x1b && i+1 < len(p) && p[i+1] == '\\':
				return i + 2
			}
		}
		return 0
	case '[':
		return csiReplyLen(p)
	}
	return 0
}

// csiReplyLen recognises the CSI replies of StripQueryReplies.
func csiReplyLen(p []byte) int {
	i := 2
	var marker byte
	if p[i] == '?' || p[i] == '>' {
		marker = p[i]
		i++
	}
	start, semis := i, 0
	for i < len(p) && (p[i] >= '0' && p[i] <= '9' || p[i] == ';') {
		if p[i] == ';' {
			semis++
		}
		i++
	}
	params := p[start:i]
	if i >= len(p) || len(params) == 0 {
		return 0
	}
	final := p[i]
	if final == '$' && i+1 < len(p) && p[i+1] == 'y' { // DECRPM
		return i + 2
	}
	reply := false
	switch final {
	case 'R':
		reply = semis == 1 && marker != '>'
	case 'n':
		reply = marker != '>'
	case 'c':
		reply = marker != 0
	case 'u':
		reply = marker == '?'
	case 't':
		reply = marker == 0 && semis == 2 && bytes.IndexByte([]byte("4689"), params[0]) >= 0 && params[1] == ';'
	}
	if !reply {
		return 0
	}
	return i + 1
}

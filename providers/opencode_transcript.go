package providers

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// The TUI's transcript is read from the TUI's own server (opencode_server.go):
// its session list finds the session the TUI started (the first one of
// the workspace created after the launch), its messages are the transcript.
// A server that does not answer within openCodeServerWait of the TUI's
// first output (and the transcript of an ACP or JSON run, which has no
// TUI) is read through the program itself, as read-only subprocesses in
// the workspace with yume-cli's environment (the TUI's HOME and XDG directories): `NAME
// session list --format json`, `NAME export SESSION`. Each of those
// takes 1.5–2 s (the program's start, about 1.2 s of CPU). Reads run one
// at a time in the background, and Poll hands over what the last one
// found. A question waits for a read begun after it was seen
// (ReadSince); the turn ends when the transcript says so.

const (
	// openCodeGap is the pause between two reads while the transcript
	// changes; openCodeIdleGap while it does not.
	openCodeGap     = 150 * time.Millisecond
	openCodeIdleGap = time.Second
	// openCodeFind bounds the search for a new session: past it (the TUI
	// never submitted its prompt, or lists no session) the screen rules.
	openCodeFind = 60 * time.Second
	// openCodeFails is how many failed reads in a row give up the transcript.
	openCodeFails = 3
	// openCodeRead bounds one read.
	openCodeRead = 30 * time.Second
	// openCodeClaim is how long a new session of the workspace that the
	// TUI's server is not at work on waits to be taken as its own (claim):
	// the TUI sets its session to work as it creates it, within a read.
	openCodeClaim = 3 * time.Second
)

// openCodeLog follows an opencode (or Kilo) session through its TUI's
// server or its CLI.
type openCodeLog struct {
	name    string
	run     func(args ...string) ([]byte, error)
	srv     *openCodeServer // nil: the CLI only
	dir     string
	prompt  string // this run's prompt: the first message of its session
	started time.Time
	// drewAt is when the TUI first wrote to its terminal (ProgramDrew;
	// zero before): its server and its session come after.
	drewAt time.Time
	stop   context.CancelFunc // kills a read in flight (Close)
	reads  sync.WaitGroup

	mu      sync.Mutex
	session string
	found   bool // the session is known to exist
	viaCLI  bool // the server never answered: the CLI reads
	gaveUp  bool
	busy    bool
	nextAt  time.Time
	idle    int // reads in a row that found nothing new
	fails   int
	err     error
	events  []transcript.Event
	seen    openCodeSeen
	lastOut string
	// listedAt is when the session list first held a candidate (claim;
	// used by the read in flight only).
	listedAt time.Time
	// notOurs is the sessions whose first message is another run's prompt
	// (claim; the read in flight only).
	notOurs map[string]bool
	// exported is when the newest finished read of the messages began;
	// handed, that of the newest one Poll handed over (ReadSince).
	exported, handed time.Time
	// inflight is when the read in flight began; urgent: the next read
	// starts as soon as it ends, without the gap (Urge).
	inflight time.Time
	urgent   bool
}

// openCodeTranscript is the TUI's transcript: a resumed session is read from
// the start of this run; a new one is found first. A TUI given a port
// (openCodeTUI) is read from its server.
func openCodeTranscript(name, prefix string) func(Launch) transcript.Source {
	return func(l Launch) transcript.Source {
		bin := l.Bin
		if bin == "" {
			bin = name
		}
		dir := l.Cwd
		if d, err := filepath.EvalSymlinks(dir); err == nil && dir != "" {
			dir = d
		}
		o := &openCodeLog{name: name, dir: dir, prompt: strings.TrimSpace(l.Prompt), started: l.Started, session: l.Session}
		all, stop := context.WithCancel(context.Background())
		o.stop = stop
		if a := openCodePortOf(name, l); a.port != 0 {
			o.srv = newOpenCodeServer(all, name, prefix, a.port, a.pass, l.Getenv)
		}
		o.run = func(args ...string) ([]byte, error) {
			ctx, cancel := context.WithTimeout(all, openCodeRead)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Dir = l.Cwd
			return cmd.Output()
		}
		if !l.Started.IsZero() {
			o.seen.since = l.Started.UnixMilli()
			// Its TUI tells a retried 429 or 500 late or not at all; its
			// shared log at once.
			return addSharedLog(o, openCodeLogPath(name, l), openCodeLogErrors(l), o.sessionID)
		}
		return o
	}
}

// ProgramDrew implements transcript.Starting.
func (o *openCodeLog) ProgramDrew() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.drewAt.IsZero() {
		o.drewAt = time.Now()
	}
}

// SessionFound implements transcript.Searching: the session is known
// to exist (found in the list, or a resumed one read).
func (o *openCodeLog) SessionFound() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.found
}

// later is the later of a and b.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// sessionID is the session being read ("" until it is found).
func (o *openCodeLog) sessionID() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.session
}

// Path names what is read: the export of the session, or (a new session
// not found yet) the search for it; "" once the transcript is given up (a
// session to resume that cannot be exported is gone). It is not checked
// before the first read, which would hold up every resumed turn (also
// in the ACP and JSON modes) by one read.
func (o *openCodeLog) Path() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.gaveUp:
		return ""
	case o.srv != nil && !o.viaCLI && o.session == "":
		return o.srv.base + "/session (finding this run's session)"
	case o.srv != nil && !o.viaCLI:
		return o.srv.base + "/session/" + o.session + "/message"
	case o.session == "":
		return o.name + " session list (finding this run's session)"
	}
	return o.name + " export " + o.session
}

// server is the server to read from; nil: the CLI.
func (o *openCodeLog) server() *openCodeServer {
	if o.viaCLI {
		return nil
	}
	return o.srv
}

// QuestionWait bounds how long a question waits for its call to reach
// the transcript. It waits for a read begun after it was seen (ReadSince):
// a few tenths of a second from the server, two reads through the CLI,
// longer on a loaded machine. The bound only holds for reads that hang.
func (o *openCodeLog) QuestionWait() time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.server() != nil {
		return 10 * time.Second
	}
	return 20 * time.Second
}

// Urge makes the next read begin without the gap between reads: at the
// next Poll, or as the read in flight ends when it began before asked. A
// question seen at asked waits for a read begun after it (ReadSince), and
// from the server the gap (100–250 ms) was most of that wait: opencode's
// dialog → tool_use, p50 40–69 ms.
func (o *openCodeLog) Urge(asked time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case !o.busy:
		o.nextAt = time.Time{}
	case o.inflight.Before(asked):
		o.urgent = true
	}
}

// ReadSince reports whether Poll has handed over a read of the session's
// messages that began at or after t (or the transcript is given up): the
// calls the program had written by t are known.
func (o *openCodeLog) ReadSince(t time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.gaveUp || !o.handed.IsZero() && !o.handed.Before(t)
}

// Poll implements transcript.Source: what the reads found since the last
// Poll, starting the next read in the background when one is due.
func (o *openCodeLog) Poll() ([]transcript.Event, error) {
	o.mu.Lock()
	start := !o.gaveUp && !o.busy && !time.Now().Before(o.nextAt)
	o.busy = o.busy || start
	if start {
		o.reads.Add(1)
		o.inflight = time.Now()
	}
	o.mu.Unlock()
	if start {
		go func() {
			defer o.reads.Done()
			o.read()
		}()
	}
	return o.take()
}

// Close stops reading: a read in flight is killed and waited for, so no
// subprocess outlives yume-cli.
func (o *openCodeLog) Close() error {
	o.mu.Lock()
	o.gaveUp = true
	o.mu.Unlock()
	if o.stop != nil {
		o.stop()
	}
	o.reads.Wait()
	return nil
}

// take hands over what the reads found.
func (o *openCodeLog) take() ([]transcript.Event, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	evs, err := o.events, o.err
	o.events, o.err = nil, nil
	o.handed = o.exported
	return evs, err
}

// read runs one read: the session list until the session is found, then
// its export (or messages).
func (o *openCodeLog) read() {
	began := time.Now()
	o.mu.Lock()
	session, srv := o.session, o.server()
	o.mu.Unlock()
	var (
		evs      []transcript.Event
		err      error
		news     bool
		exported bool
	)
	if session == "" {
		session, err = o.find(srv)
		if session != "" {
			evs, news = append(evs, transcript.Event{Kind: transcript.Session, Session: session}), true
		}
	} else {
		var more []transcript.Event
		more, news, err = o.export(srv, session)
		evs = append(evs, more...)
		exported = err == nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.busy = false
	if session != "" && err == nil {
		o.session, o.found = session, true
	}
	if exported {
		o.exported = began
	}
	o.events = append(o.events, evs...)
	o.idle++
	if news {
		o.idle = 0
	}
	gap, idleGap := openCodeGap, openCodeIdleGap
	if srv != nil {
		gap, idleGap = openCodeServerGap, openCodeServerIdleGap
		err = o.serverDown(err)
	}
	if o.idle > 2 || ended(evs) {
		// Unchanged, or the turn is over (the program is being closed,
		// or waits for the next prompt): a read through the CLI costs a
		// core for a second.
		gap = idleGap
	}
	o.nextAt = time.Now().Add(gap)
	if srv != nil && o.viaCLI || o.urgent {
		o.nextAt = time.Now() // the CLI's first read, or a question waits (Urge)
	}
	o.urgent = false
	switch {
	case err != nil:
		o.fails++
		// A session to resume that cannot be read is gone; a transcript that
		// keeps failing is given up: the screen rules.
		if resumed := o.session != "" && !o.found; resumed || o.fails >= openCodeFails {
			o.gaveUp, o.err = true, err
		}
	case o.session == "" && !o.started.IsZero() && time.Since(later(o.started, o.drewAt)) > openCodeFind:
		o.gaveUp = true
		o.err = fmt.Errorf("%s lists no session of %s started since %s", o.name, o.dir, o.started.Format(time.TimeOnly))
	default:
		o.fails = 0
	}
}

// serverDown is err of a read from the server, nil while the server is
// not up yet (the TUI is starting). One that never answered within
// openCodeServerWait, or wants a password, gives way to the CLI; once it
// answered, not answering is a failed read (the TUI is gone).
func (o *openCodeLog) serverDown(err error) error {
	switch {
	case errors.Is(err, errOpenCodeDenied):
		o.viaCLI = true
		return nil
	case o.srv.hasAnswered(): // this read or an earlier one
	case o.drewAt.IsZero() || time.Since(o.drewAt) < openCodeServerWait:
		// A TUI not drawing yet is starting, not serverless: under load
		// Kilo drew first 24 s after its launch, and the CLI's reads
		// (a core each) would only slow it more.
		return nil
	default:
		o.viaCLI = true
		return nil
	}
	return err
}

// ended reports whether evs end a turn.
func ended(evs []transcript.Event) bool {
	for _, e := range evs {
		if e.Kind == transcript.TurnEnd {
			return true
		}
	}
	return false
}

// export reads the session and reports what is new; news says whether
// the transcript changed at all.
func (o *openCodeLog) export(srv *openCodeServer, session string) ([]transcript.Event, bool, error) {
	var (
		x   *openCodeExport
		out []byte
		err error
	)
	if srv != nil {
		x, out, err = srv.messages(session)
	} else if out, err = o.run("export", session); err == nil {
		x, err = parseOpenCodeExport(out)
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s export %s: %w", o.name, session, err)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	news := string(out) != o.lastOut
	o.lastOut = string(out)
	evs := o.seen.events(x)
	if srv != nil && ended(evs) && srv.busy(session) {
		// The transcript has the answer, but the TUI is still at work on it:
		// a quit key typed now would stop that work, not quit.
		evs = o.seen.holdEnd(evs)
	}
	return evs, news, nil
}

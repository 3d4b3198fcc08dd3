package providers

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// The TUI's record is read through the program itself, as read-only
// subprocesses in the workspace with yume-cli's environment (the TUI's
// HOME and XDG directories): `NAME session list --format json` finds the
// session the TUI started (the first one of the workspace created after
// the launch), `NAME export SESSION` prints it. Each takes 1.5–2 s (the
// program's start, about 1.2 s of CPU), too slow to block the driver:
// they run one at a time in the background, and Poll hands over what
// the last one found. A question waits for its call that long
// (QuestionWait); the turn ends when the record says so.

const (
	// openCodeGap is the pause between two reads while the record
	// changes; openCodeIdleGap while it does not.
	openCodeGap     = 150 * time.Millisecond
	openCodeIdleGap = time.Second
	// openCodeFind bounds the search for a new session: past it (the TUI
	// never submitted its prompt, or lists no session) the screen rules.
	openCodeFind = 60 * time.Second
	// openCodeFails is how many failed reads in a row give up the record.
	openCodeFails = 3
	// openCodeRead bounds one read.
	openCodeRead = 30 * time.Second
)

// openCodeLog follows an opencode (or Kilo) session through its CLI.
type openCodeLog struct {
	name    string
	run     func(args ...string) ([]byte, error)
	dir     string
	started time.Time
	stop    context.CancelFunc // kills a read in flight (Close)
	reads   sync.WaitGroup

	mu      sync.Mutex
	session string
	found   bool // the session is known to exist
	gaveUp  bool
	busy    bool
	nextAt  time.Time
	idle    int // reads in a row that found nothing new
	fails   int
	err     error
	events  []transcript.Event
	seen    openCodeSeen
	lastOut string
}

// openCodeRecord is the TUI's session log: a resumed session is read from
// the start of this run; a new one is found first.
func openCodeRecord(name string) func(Launch) transcript.Source {
	return func(l Launch) transcript.Source {
		bin := l.Bin
		if bin == "" {
			bin = name
		}
		dir := l.Cwd
		if d, err := filepath.EvalSymlinks(dir); err == nil && dir != "" {
			dir = d
		}
		o := &openCodeLog{name: name, dir: dir, started: l.Started, session: l.Session}
		all, stop := context.WithCancel(context.Background())
		o.stop = stop
		o.run = func(args ...string) ([]byte, error) {
			ctx, cancel := context.WithTimeout(all, openCodeRead)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Dir = l.Cwd
			return cmd.Output()
		}
		if !l.Started.IsZero() {
			o.seen.since = l.Started.UnixMilli()
		}
		return o
	}
}

// Path names what is read: the export of the session, or (a new session
// not found yet) the search for it; "" once the record is given up (a
// session to resume that cannot be exported is gone). It is not checked
// before the first read, which would hold up every resumed turn (also
// in the ACP and JSON modes) by one read.
func (o *openCodeLog) Path() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.gaveUp:
		return ""
	case o.session == "":
		return o.name + " session list (finding this run's session)"
	}
	return o.name + " export " + o.session
}

// QuestionWait is how long a question waits for its call to reach the
// record: two reads.
func (o *openCodeLog) QuestionWait() time.Duration { return 4 * time.Second }

// Poll implements transcript.Source: what the reads found since the last
// Poll, starting the next read in the background when one is due.
func (o *openCodeLog) Poll() ([]transcript.Event, error) {
	o.mu.Lock()
	start := !o.gaveUp && !o.busy && !time.Now().Before(o.nextAt)
	o.busy = o.busy || start
	if start {
		o.reads.Add(1)
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
	return evs, err
}

// read runs one read: the session list until the session is found, then
// its export.
func (o *openCodeLog) read() {
	o.mu.Lock()
	session := o.session
	o.mu.Unlock()
	var (
		evs  []transcript.Event
		err  error
		news bool
	)
	if session == "" {
		session, err = o.find()
		if session != "" {
			evs, news = append(evs, transcript.Event{Kind: transcript.Session, Session: session}), true
		}
	} else {
		var more []transcript.Event
		more, news, err = o.export(session)
		evs = append(evs, more...)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.busy = false
	if session != "" && err == nil {
		o.session, o.found = session, true
	}
	o.events = append(o.events, evs...)
	o.idle++
	if news {
		o.idle = 0
	}
	gap := openCodeGap
	if o.idle > 2 || ended(evs) {
		// Unchanged, or the turn is over (the program is being closed,
		// or waits for the next prompt): a read costs a core for a second.
		gap = openCodeIdleGap
	}
	o.nextAt = time.Now().Add(gap)
	switch {
	case err != nil:
		o.fails++
		// A session to resume that cannot be read is gone; a record that
		// keeps failing is given up: the screen rules.
		if resumed := o.session != "" && !o.found; resumed || o.fails >= openCodeFails {
			o.gaveUp, o.err = true, err
		}
	case o.session == "" && !o.started.IsZero() && time.Since(o.started) > openCodeFind:
		o.gaveUp = true
		o.err = fmt.Errorf("%s lists no session of %s started since %s", o.name, o.dir, o.started.Format(time.TimeOnly))
	default:
		o.fails = 0
	}
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

// find looks for this run's session in the session list.
func (o *openCodeLog) find() (string, error) {
	out, err := o.run("session", "list", "--format", "json", "-n", "20")
	if err != nil {
		return "", fmt.Errorf("%s session list: %w", o.name, err)
	}
	return pickOpenCodeSession(out, o.dir, o.seen.since)
}

// export reads the session and reports what is new; news says whether
// the record changed at all.
func (o *openCodeLog) export(session string) ([]transcript.Event, bool, error) {
	out, err := o.run("export", session)
	if err != nil {
		return nil, false, fmt.Errorf("%s export %s: %w", o.name, session, err)
	}
	x, err := parseOpenCodeExport(out)
	if err != nil {
		return nil, false, fmt.Errorf("%s export %s: %w", o.name, session, err)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	news := string(out) != o.lastOut
	o.lastOut = string(out)
	return o.seen.events(x), news, nil
}

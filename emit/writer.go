package emit

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Config configures a Writer. The zero value is usable.
type Config struct {
	// Protocol selects the Claude (default) or flat shapes.
	Protocol Protocol
	// SessionID is announced in system/init and carried on every
	// system, assistant, user and result line. Default: NewSessionID().
	SessionID string
	// Model is reported in system/init (omitted there when empty) and in
	// every assistant message ("yume-cli" when empty).
	Model string
	// Cwd is reported in system/init (omitted when empty).
	Cwd string
	// Now reads the clock for result.duration_ms. Default: time.Now.
	Now func() time.Time
	// Persistent says more turns follow a result (NewTurn): lines between
	// turns are written. Otherwise the session is over at message_stop
	// and anything later goes to Late instead of stdout.
	Persistent bool
	// Late receives, as text, what comes after the session ended (a late
	// approval's complaint). Default: discarded.
	Late io.Writer
	// GUIGone reports that the GUI went away although no write has failed
	// yet (stdout's reader closed, yume-cli's parent exited): see
	// Writer.GUIGone. nil: only a failed write says so.
	GUIGone func() bool
	// OnAsk is called after each permission request is written, outside
	// the Writer's lock: a person at a terminal is asked in words.
	OnAsk func(Asked)
}

// defaultModel names the model of assistant messages when Config.Model is
// empty, as the TypeScript shim did; Yume shows it under the message.
const defaultModel = "yume-cli"

// Writer writes one JSON line per event to an io.Writer and flushes it.
// It is safe for concurrent use: each event (and each result + message_stop
// pair) is written whole, never interleaved with another.
//
// The first event is always system/init: an event written before Init
// triggers an init with permissionMode "default" and no tools (the stream
// stays valid when, say, a configuration error is reported before the
// session starts), and Init then returns an error.
//
// After a write to out fails (EPIPE when the GUI has gone), nothing more is
// written and every later call returns that first error, so no line is ever
// left half written in front of another.
type Writer struct {
	mu    sync.Mutex
	out   io.Writer
	flush func() error
	proto Protocol
	model string
	cwd   string
	now   func() time.Time

	sessionID  string
	start      time.Time
	initDone   bool
	driveMode  string
	turnEnded  bool
	lastFailed bool // the last result was an error result
	closed     bool // the session is over: nothing more on stdout
	persist    bool
	late       io.Writer
	guiGone    func() bool
	err        error             // first write error, sticky
	requests   map[string]string // permission request id -> tool_use id
	asked      []Asked           // the permission requests, in order (Waiting)
	onAsk      func(Asked)
	open       map[string]bool // tool_use ids written without a result yet
	denials    []denial        // this turn's denied tools
	msgUsage   *Usage          // the usage of the assistant messages written now (MessageUsage)
	afterInit  [][2]string     // system messages (subtype, message) waiting for init (SystemAfterInit)
	scratch    []byte          // reused to encode each line (see encodeLine)
}

// NewWriter returns a Writer on out. cfg's zero fields take their defaults
// (see Config); an unknown Protocol is treated as Claude.
func NewWriter(out io.Writer, cfg Config) *Writer {
	w := &Writer{
		out:       out,
		flush:     flusher(out),
		proto:     cfg.Protocol,
		model:     ValidUTF8(cfg.Model),
		cwd:       ValidUTF8(cfg.Cwd),
		now:       cfg.Now,
		sessionID: ValidUTF8(cfg.SessionID),
		requests:  make(map[string]string),
		persist:   cfg.Persistent,
		late:      cfg.Late,
		guiGone:   cfg.GUIGone,
		onAsk:     cfg.OnAsk,
		open:      make(map[string]bool),
	}
	if w.proto != Flat {
		w.proto = Claude
	}
	if w.now == nil {
		w.now = time.Now
	}
	if w.sessionID == "" {
		w.sessionID = NewSessionID()
	}
	w.start = w.now()
	return w
}

// flusher returns how to push a written line through out's buffering:
// Flush for a *bufio.Writer and the like, Sync for other syncers. An
// *os.File is not buffered and Sync on a pipe fails with EINVAL, so stdout
// needs nothing.
func flusher(out io.Writer) func() error {
	if _, ok := out.(*os.File); ok {
		return func() error { return nil }
	}
	switch f := out.(type) {
	case interface{ Flush() error }:
		return f.Flush
	case interface{ Sync() error }:
		return f.Sync
	}
	return func() error { return nil }
}

// SessionID returns the session id the Writer currently reports.
func (w *Writer) SessionID() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sessionID
}

// GUIGone reports that the GUI went away: a write to out failed, or
// Config.GUIGone says so. Nothing may be approved then: nobody sees it.
func (w *Writer) GUIGone() bool {
	w.mu.Lock()
	failed, probe := w.err != nil, w.guiGone
	w.mu.Unlock()
	return failed || probe != nil && probe()
}

// DriveMode is how the provider is driven, as SetDriveMode said.
func (w *Writer) DriveMode() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.driveMode
}

// SetDriveMode records how the provider is driven (pty, json, acp), for
// the init line's yume_mode field; call it before Init.
func (w *Writer) SetDriveMode(mode string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.driveMode = ValidUTF8(mode)
}

// Init writes the system/init line: session id, model, cwd, the permission
// mode ("default" when empty) and the tools that can really run. It must
// be the first event and may be called once; later calls return an error
// and write nothing, except in a persistent session, whose turns each
// start the way a one-turn session does: there a later call is a no-op
// (one init per process).
func (w *Writer) Init(permissionMode string, tools []string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.initDone {
		if w.persist {
			return nil
		}
		return fmt.Errorf("emit: system/init was already written; call Init once, before any other event")
	}
	return w.initLocked(permissionMode, tools)
}

func (w *Writer) initLocked(permissionMode string, tools []string) error {
	if permissionMode == "" {
		permissionMode = "default"
	}
	clean := make([]string, 0, len(tools))
	for _, t := range tools {
		clean = append(clean, ValidUTF8(t))
	}
	line, err := encodeLine(initLine{
		Type:           "system",
		Subtype:        "init",
		SessionID:      w.sessionID,
		Model:          w.model,
		Cwd:            w.cwd,
		PermissionMode: ValidUTF8(permissionMode),
		Tools:          clean,
		YumeMode:       w.driveMode,
		UUID:           NewUUID(),
	})
	if err != nil {
		return fmt.Errorf("emit: cannot encode system/init: %w", err)
	}
	w.initDone = true
	if err := w.writeLocked(line); err != nil {
		return err
	}
	return w.afterInitLocked()
}

// emitLocked writes an event, preceded by a default init if none was
// written yet. An event that cannot be encoded is reported and nothing is
// written. The caller holds w.mu.
func (w *Writer) emitLocked(v any) error {
	line, err := encodeLineInto(w.scratch, v)
	if err != nil {
		return fmt.Errorf("emit: cannot encode %s event: %w", eventType(v), err)
	}
	if !w.initDone {
		if err := w.initLocked("", nil); err != nil {
			return err
		}
	}
	// Keep the buffer for the next line unless an unusually big one grew it.
	if cap(line) <= maxScratch {
		w.scratch = line[:0]
	}
	return w.writeLocked(line)
}

// maxScratch bounds the encoding buffer a Writer keeps between lines.
const maxScratch = 2 * MaxLine

// writeLocked writes and flushes one encoded line.
func (w *Writer) writeLocked(line []byte) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		if w.late != nil {
			fmt.Fprintf(w.late, "yume-cli: after the session ended: %s", line)
		}
		return nil
	}
	if _, err := w.out.Write(line); err != nil {
		w.err = fmt.Errorf("emit: writing stdout failed (is the reader gone?): %w", err)
		return w.err
	}
	if err := w.flush(); err != nil {
		w.err = fmt.Errorf("emit: flushing stdout failed (is the reader gone?): %w", err)
		return w.err
	}
	return nil
}

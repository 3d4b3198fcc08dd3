package structured

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/internal/lastwords"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/transcript"
)

// acpTranscript, when set (tests), receives every ACP line read and written.
var acpTranscript io.Writer

// acpSession is one ACP run: the connection, the translator and what the
// reading goroutine and the main flow share.
type acpSession struct {
	opts Options
	tr   *acpTranslator
	ap   *approver
	conn *acpConn

	mu      sync.Mutex // guards tr
	started time.Time
	mode    providers.Mode
	// tally counts the tokens the agent's transcript holds of the turn
	// (UsageFromTranscript).
	tally transcript.Tally
	agent string // the agent's name in messages
	// authMethods are the agent's ways to log in (initialize), for the
	// error that says how when it answers auth_required.
	authMethods []acpAuthMethod
	loading     atomic.Bool
	// autoName is the allow-all auto mode set on a named agent's command
	// line (its session mode is then left as it is).
	autoName string
	cwd      string
	// allowed are the calls the agent asked about and was allowed (their
	// writes and terminals run as allowed, acp_client.go); ownCalls counts
	// the writes yume-cli reported itself.
	allowed  map[string]bool
	ownCalls int
	terms    *acpTerminals
	// modes are the session modes the agent offers, wantMode the one
	// yume-cli put it in (acp_modes.go), modeRestores how often it was
	// put back.
	modes        sessionModes
	wantMode     modeChoice
	modeRestores int
	// offToggles are the agent's on/off options yume-cli turned off
	// (acp_modes.go ownToggles), by id.
	offToggles map[string]acpToggle
	sessionID  atomic.Value // string
	// transcript is the agent's own, read for outputs ACP leaves out;
	// closed at the end, so no read it runs outlives yume-cli.
	transcript transcript.Source
	// pollStop ends the background look for outputs the transcript does
	// not have yet (acp_awaited_output.go); nil when none runs.
	pollStop chan struct{}
}

func runACP(ctx context.Context, opts Options, w *emit.Writer, mode providers.Mode, inv providers.Invocation, path, note string) error {
	p := opts.Provider
	cwd, err := filepath.Abs(opts.Cwd)
	if err != nil {
		return fmt.Errorf("working directory %q: %w", opts.Cwd, err)
	}
	watch := newErrorWatch(w, p.Name) // model errors on its stderr (modelerror.go)
	watch.silent = true               // an agent says nothing while it waits on its model
	opts.Stderr = watch.tee(opts.Stderr)
	words := lastwords.NewTail() // its stderr, for a failed start (startfail.go)
	pr, err := startProvider(withWords(opts, words), path, inv.Args, true)
	if err != nil {
		return err
	}
	s := &acpSession{opts: opts, tr: &acpTranslator{turn: newTurn(w, p, string(opts.PermissionMode))}, started: time.Now(), agent: p.Name,
		cwd: cwd, allowed: map[string]bool{}, terms: &acpTerminals{byID: map[string]*acpTerm{}, env: opts.Env}, mode: mode}
	s.tr.terminalOutput = s.terms.outputOf
	if p.Bin == "" {
		s.agent = filepath.Base(path) // any ACP agent: named by its program
	}
	s.tr.agent = s.agent
	if opts.PermissionMode == permission.Auto && mode.AutoName != "" {
		s.tr.unaskedBy = mode.AutoName
		s.autoName = mode.AutoName
	}
	s.tr.setDangers(opts.Dangers)
	s.tr.setNote(note)
	s.tr.setFirstRun(opts.FirstRun)
	s.tr.setWords(words)
	s.tr.onProviderSession(opts.OnSession)
	s.tr.watch = watch
	watch.followDebugLog(p.DebugLog, opts.debugAt, func() string { id, _ := s.sessionID.Load().(string); return id })
	// Calls the agent's side requests made (Qwen's memory agent) are in
	// its transcript only: read once it exited, before the result.
	s.tr.reportSideCalls(providers.ByCommand(opts.Command), func() providers.Launch {
		return providers.Launch{Cwd: cwd, Getenv: getenv(opts.Env), Started: s.started}
	})
	turnCtx, cancelTurn := context.WithCancel(context.Background())
	defer cancelTurn()
	pr.watch(ctx, func() {
		cancelTurn()
		if id, _ := s.sessionID.Load().(string); id != "" {
			_ = s.conn.notify("session/cancel", map[string]any{"sessionId": id}) // Best effort: the agent may be gone.
		} else {
			pr.interrupt()
		}
	})
	defer pr.release()
	watch.start(pr.stop)
	defer watch.close()
	s.ap = pr.approver(w, opts)

	s.conn = newACPConn(pr.stdin, func(m string, params json.RawMessage, req bool) (any, error) {
		return s.handle(turnCtx, m, params, req)
	})
	s.conn.log = acpTranscript
	served := make(chan error, 1)
	go func() {
		st, err := s.conn.serve(words.Reader(pr.stdout), p.Name, opts.Stderr)
		if opts.Verbose {
			fmt.Fprintf(opts.Stderr, "yume-cli: %s: %d ACP lines, %d malformed\n", p.Name, st.Lines, st.Malformed)
		}
		served <- err
	}()

	defer s.closeTranscript()
	reason, perr := s.prompt(turnCtx, cwd, &pr.interrupted)
	// The commands run for the agent end with its turn, their results
	// reported before the turn's.
	s.terms.closeAll()
	// The turn is over: closing stdin lets the agent save its session and
	// exit; one that lingers is interrupted, then killed.
	_ = pr.stdin.Close() // Best effort: the agent may have exited.
	var serr error
	select {
	case serr = <-served:
	case <-time.After(killGrace):
		pr.interrupt()
		serr = <-served
	}
	exit := pr.wait()

	s.mu.Lock()
	defer s.mu.Unlock()
	if serr == nil && s.tr.fromTranscript != nil {
		if _, err := s.tr.writeAwaited(true); err != nil {
			return err // the calls' results come before the turn's
		}
	}
	switch {
	case serr != nil:
		return serr // stdout failed
	case watch.stoppedWhy() != "":
		return s.tr.end(watch.stopResult()) // retried past the bound: yume-cli stopped it
	case pr.interrupted.Load():
		return s.tr.abort()
	case perr != nil:
		if errors.Is(perr, errWrite) {
			return perr
		}
		var login *loginError
		if errors.As(perr, &login) {
			return s.tr.end(emit.Result{IsError: true, Errors: []string{login.Error()}})
		}
		if exit != nil {
			if r, ok := s.tr.failedStart(s.agent, exit); ok {
				// It exited before it could answer: why, in its words.
				if opts.Verbose {
					fmt.Fprintf(opts.Stderr, "yume-cli: %s: %v\n", s.agent, perr)
				}
				return s.tr.end(r)
			}
		}
		msg := perr.Error()
		if exit != nil {
			msg = fmt.Sprintf("%s (%s exited: %v)", msg, p.Name, exit)
		}
		return s.tr.end(emit.Result{IsError: true, Errors: []string{msg}})
	}
	return s.tr.stop(reason)
}

// errWrite wraps a failure to write our own stdout.
var errWrite = errors.New("writing events")

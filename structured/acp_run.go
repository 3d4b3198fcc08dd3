package structured

import (
	"bytes"
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

// acpRecord, when set (tests), receives every ACP line read and written.
var acpRecord io.Writer

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
	// tally counts the tokens the agent's record holds of the turn
	// (UsageFromRecord).
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
	// record is the agent's own record, read for outputs ACP leaves out;
	// closed at the end, so no read it runs outlives yume-cli.
	record transcript.Source
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
	s := &acpSession{opts: opts, tr: &acpTranslator{turn: newTurn(w, p, opts.PermissionMode)}, started: time.Now(), agent: p.Name,
		cwd: cwd, allowed: map[string]bool{}, terms: &acpTerminals{byID: map[string]*acpTerm{}, env: opts.Env}, mode: mode}
	s.tr.terminalOutput = s.terms.outputOf
	if p.Bin == "" {
		s.agent = filepath.Base(path) // any ACP agent: named by its program
	}
	s.tr.agent = s.agent
	if opts.PermissionMode == string(permission.Auto) && mode.AutoName != "" {
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
	// its record only: read once it exited, before the result.
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
	s.conn.log = acpRecord
	served := make(chan error, 1)
	go func() {
		st, err := s.conn.serve(words.Reader(pr.stdout), p.Name, opts.Stderr)
		if opts.Verbose {
			fmt.Fprintf(opts.Stderr, "yume-cli: %s: %d ACP lines, %d malformed\n", p.Name, st.Lines, st.Malformed)
		}
		served <- err
	}()

	defer s.closeRecord()
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

// closeRecord stops the agent's record from being read (a read in
// flight, a subprocess for opencode's CLI, is killed and waited for).
func (s *acpSession) closeRecord() {
	s.mu.Lock()
	rec := s.record
	s.mu.Unlock()
	if c, ok := rec.(io.Closer); ok {
		_ = c.Close() // Best effort: the run's events are all out.
	}
}

// errWrite wraps a failure to write our own stdout.
var errWrite = errors.New("writing events")

// prompt runs initialize, session/new (or load) and session/prompt and
// returns the stop reason.
func (s *acpSession) prompt(turnCtx context.Context, cwd string, interrupted *atomic.Bool) (string, error) {
	// Requests wait until the agent answers; after an interrupt the agent
	// gets killGrace to answer the prompt with "cancelled".
	callCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-turnCtx.Done():
			select {
			case <-time.After(killGrace):
				cancel()
			case <-callCtx.Done():
			}
		case <-callCtx.Done():
		}
	}()
	initRes, err := s.conn.call(callCtx, "initialize", map[string]any{
		"protocolVersion": 1,
		// yume-cli's file system and terminals, under its permission policy.
		"clientCapabilities": clientCapabilities(),
		"clientInfo":         map[string]any{"name": "yume-cli", "version": "1"},
	})
	if err != nil {
		return "", err
	}
	var caps struct {
		AgentCapabilities struct {
			LoadSession bool `json:"loadSession"`
		} `json:"agentCapabilities"`
		AuthMethods []acpAuthMethod `json:"authMethods"`
	}
	_ = json.Unmarshal(initRes, &caps) // Missing capabilities mean none.
	s.authMethods = caps.AuthMethods
	sessionID := s.opts.Resume
	var sessionRes json.RawMessage
	if sessionID != "" {
		if !caps.AgentCapabilities.LoadSession {
			return "", s.cannotResume()
		}
		// The agent replays the old conversation as updates: not news to Yume.
		s.loading.Store(true)
		sessionRes, err = s.conn.call(callCtx, "session/load", map[string]any{"sessionId": sessionID, "cwd": cwd, "mcpServers": []any{}})
		s.loading.Store(false)
	} else {
		var res json.RawMessage
		res, err = s.conn.call(callCtx, "session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
		sessionRes = res
		var ns struct {
			SessionID string `json:"sessionId"`
		}
		if err == nil {
			if err = json.Unmarshal(res, &ns); err == nil && ns.SessionID == "" {
				err = errors.New("session/new returned no sessionId")
			}
		}
		sessionID = ns.SessionID
	}
	if err != nil {
		return "", s.loginNeeded(err)
	}
	s.sessionID.Store(sessionID)
	p := s.opts.Provider
	if known := providers.ByCommand(s.opts.Command); p.Bin == "" && known != nil {
		p = known // any ACP agent that is one yume-cli knows: its record too
	}
	if p.TUI != nil && p.TUI.SessionLog != nil {
		var rec transcript.Source = p.TUI.SessionLog(providers.Launch{Session: sessionID, Cwd: cwd, Getenv: getenv(s.opts.Env), Started: s.started})
		if s.mode.UsageFromRecord {
			rec = &tallied{Source: rec, tally: &s.tally}
		}
		s.mu.Lock()
		s.record, s.tr.recorded = rec, recordedOutput(rec)
		s.mu.Unlock()
	}
	s.mu.Lock()
	s.tally.Since = time.Now()
	err = s.tr.init(sessionID, s.opts.Provider.Tools)
	s.mu.Unlock()
	if err != nil {
		return "", fmt.Errorf("%w: %v", errWrite, err)
	}
	if err := s.ownMode(callCtx, sessionID, sessionRes); err != nil {
		return "", fmt.Errorf("%w: %v", errWrite, err)
	}
	if interrupted.Load() {
		return "cancelled", nil
	}
	res, err := s.conn.call(callCtx, "session/prompt", map[string]any{"sessionId": sessionID,
		"prompt": []any{map[string]any{"type": "text", "text": s.opts.Prompt}}})
	if err != nil {
		return "", s.loginNeeded(err)
	}
	var pr promptResult
	if err := json.Unmarshal(res, &pr); err != nil {
		return "", fmt.Errorf("session/prompt result %s: %w", res, err)
	}
	s.mu.Lock()
	if u := pr.usage(s.mode.InputOmitsCache); u != nil {
		s.tr.setUsage(*u)
	}
	s.mu.Unlock()
	if s.mode.UsageFromRecord {
		s.usageFromRecord()
	}
	return pr.StopReason, nil
}

// handle answers the agent's requests and notifications (reading goroutine).
func (s *acpSession) handle(turnCtx context.Context, method string, params json.RawMessage, isRequest bool) (any, error) {
	switch method {
	case "session/update":
		if s.loading.Load() {
			return nil, nil
		}
		if bytes.Contains(params, []byte(`"agent_thought_chunk"`)) || bytes.Contains(params, []byte(`"plan"`)) {
			s.tr.watch.alive() // thinking, planning: not a silent retry
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if bytes.Contains(params, []byte(`"current_mode_update"`)) {
			if err := s.modeChanged(turnCtx, params); err != nil {
				return nil, err
			}
		}
		if bytes.Contains(params, []byte(`"config_option_update"`)) {
			if err := s.togglesChanged(turnCtx, params); err != nil {
				return nil, err
			}
		}
		return nil, s.tr.update(params)
	case "session/request_permission":
		return s.permission(turnCtx, params)
	}
	if res, ok, err := s.clientRequest(turnCtx, method, params); ok {
		return res, err
	}
	if isRequest {
		return nil, &acpError{Code: -32601, Message: "yume-cli does not implement " + method}
	}
	return nil, nil
}

// permission routes a session/request_permission to the approver.
func (s *acpSession) permission(turnCtx context.Context, params json.RawMessage) (any, error) {
	var p permissionCall
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &acpError{Code: -32602, Message: "bad request_permission params: " + err.Error()}
	}
	id := p.ToolCall.ToolCallID
	s.mu.Lock()
	if !s.tr.tools.seen(id) {
		s.tr.askedBy = s.ap.answeredBy // written as it is asked: it says who answers
		err := s.tr.use(p.ToolCall)
		s.tr.askedBy = nil
		if err != nil {
			s.mu.Unlock()
			return nil, err
		}
	}
	tc, _ := s.tr.tools.get(id)
	s.mu.Unlock()
	d, err := s.ap.ask(turnCtx, id, tc.name, tc.input)
	if err != nil {
		if turnCtx.Err() != nil {
			// session/cancel: every pending permission is answered cancelled.
			return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
		}
		return nil, err
	}
	if d.Allow && p.pickOption("allow_once") == "" {
		d = permission.Answer{Message: fmt.Sprintf("%s offered no allow-once option for this call; yume-cli never picks an \"always\" one, so it did not run: allow it in %s's own settings, or run it yourself", s.agent, s.agent)}
	}
	if d.Allow {
		s.mu.Lock()
		s.allowed[id] = true
		s.mu.Unlock()
	}
	if !d.Allow {
		// Report the denial now: not every agent sends a result for a
		// rejected call (Gemini does not).
		s.mu.Lock()
		err = s.tr.deny(id, d.Denial())
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	return p.outcome(d), nil
}

// recordWait bounds the wait for a call's output to reach the record,
// which the agent writes once the call finished.
const recordWait = 2 * time.Second

// recordedOutput looks calls' outputs up in rec, waiting up to recordWait
// for one that is not there yet.
func recordedOutput(rec transcript.Source) func(id string) (string, bool) {
	outputs := map[string]string{}
	return func(id string) (string, bool) {
		for deadline := time.Now().Add(recordWait); ; {
			evs, _ := rec.Poll() // Best effort: no record, no output.
			for _, e := range evs {
				if e.Kind == transcript.ToolResult {
					outputs[e.ID] = e.Output
				}
			}
			if out, ok := outputs[id]; ok || time.Now().After(deadline) {
				return out, ok
			}
			time.Sleep(50 * time.Millisecond) // Polling: the record gives no event to wait on.
		}
	}
}

// promptResult is a session/prompt response. Token counts are not in ACP v1;
// Copilot, opencode and Kilo report them in "usage", Gemini in
// "_meta.quota.token_count" (Qwen Code with each message: acpTranslator).
type promptResult struct {
	StopReason string `json:"stopReason"`
	Usage      *struct {
		InputTokens       int `json:"inputTokens"`
		OutputTokens      int `json:"outputTokens"`
		CachedReadTokens  int `json:"cachedReadTokens"`
		CachedWriteTokens int `json:"cachedWriteTokens"`
	} `json:"usage"`
	Meta struct {
		Quota struct {
			TokenCount *struct {
				InputTokens  int `json:"input_tokens"`
				OutputTokens int `json:"output_tokens"`
			} `json:"token_count"`
		} `json:"quota"`
	} `json:"_meta"`
}

// usage is the turn's tokens the response tells, in Claude's split; nil
// when it tells none. Copilot's inputTokens count the cached tokens too
// (as the OpenAI API does), opencode's and Kilo's do not (omitsCache);
// Gemini's input_tokens count them with no word of how many.
func (p promptResult) usage(omitsCache bool) *emit.Usage {
	switch u := p.Usage; {
	case u != nil && omitsCache:
		return &emit.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadInputTokens: u.CachedReadTokens, CacheCreationInputTokens: u.CachedWriteTokens}
	case u != nil:
		s := emit.Split(u.InputTokens, u.OutputTokens, u.CachedReadTokens, u.CachedWriteTokens)
		return &s
	case p.Meta.Quota.TokenCount != nil:
		return &emit.Usage{InputTokens: p.Meta.Quota.TokenCount.InputTokens, OutputTokens: p.Meta.Quota.TokenCount.OutputTokens}
	}
	return nil
}

// usageFromRecord sets the turn's usage from the agent's record, where it
// is split by the cache, once the agent answered the prompt: what the
// record gained by now (one more read a moment later if none yet). The
// response's own count stays when the record has none.
func (s *acpSession) usageFromRecord() {
	s.mu.Lock()
	rec := s.record
	s.mu.Unlock()
	if rec == nil {
		return
	}
	u, ok := pollUsage(rec, &s.tally)
	if ok {
		s.mu.Lock()
		s.tr.setUsage(u)
		s.mu.Unlock()
	}
}

package structured

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/transcript"
)

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
		p = known // any ACP agent that is one yume-cli knows: its transcript too
	}
	if p.TUI != nil && p.TUI.Transcript != nil {
		var src transcript.Source = p.TUI.Transcript(providers.Launch{Session: sessionID, Cwd: cwd, Getenv: getenv(s.opts.Env), Started: s.started})
		if s.mode.UsageFromTranscript {
			src = &tallied{Source: src, tally: &s.tally}
		}
		s.mu.Lock()
		s.transcript, s.tr.fromTranscript, s.tr.lookForOutputs = src, transcriptOutput(src), s.lookForOutputs
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
	// The outputs the transcript is awaited for are read now, so that the
	// background look has nothing left to read beside the usage's.
	_, err = s.tr.writeAwaited(true)
	s.mu.Unlock()
	if err != nil {
		return "", fmt.Errorf("%w: %v", errWrite, err)
	}
	if s.mode.UsageFromTranscript {
		s.usageFromTranscript()
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

package structured

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"github.com/yume-cli/yume-cli/permission"
)

// ownMode puts the agent in the session mode that asks before changes,
// where it offers modes, so that yume-cli's permission mode answers its
// questions; where none asks, a system error (shown by Yume) says so. In
// auto mode an agent yume-cli knows by name keeps the allow-all its
// command line set. Only a failure to write our own stdout is returned.
func (s *acpSession) ownMode(ctx context.Context, sessionID string, res json.RawMessage) error {
	sm := readSessionModes(res)
	if err := s.ownToggles(ctx, sessionID, sm.toggles); err != nil {
		return err
	}
	if s.autoName != "" {
		return nil
	}
	choice, ok := pickMode(sm.modes, sm.current)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modes, s.wantMode = sm, choice
	if choice.change {
		var err error
		s.mu.Unlock()
		if sm.configID != "" {
			_, err = s.conn.call(ctx, "session/set_config_option", map[string]any{"sessionId": sessionID, "configId": sm.configID, "value": choice.mode.ID})
		} else {
			_, err = s.conn.call(ctx, "session/set_mode", map[string]any{"sessionId": sessionID, "modeId": choice.mode.ID})
		}
		s.mu.Lock()
		if err != nil {
			return s.tr.w.SystemError(fmt.Sprintf("yume-cli could not switch %s to its session mode %s, the one that asks before changes (%v): %s may run commands or change files without asking; each is still reported",
				s.agent, modeNames([]acpMode{choice.mode}), err, s.agent))
		}
		if err := s.tr.w.Notice(fmt.Sprintf("yume-cli switched %s from its session mode %s to %s (%s): yume-cli's permission mode %s answers what it asks",
			s.agent, cmp.Or(sm.current, "(none)"), modeNames([]acpMode{choice.mode}), choice.class, s.opts.PermissionMode)); err != nil {
			return err
		}
	}
	if choice.class != modeAsks && choice.class != modeNeutral || choice.class == modeNeutral && choice.change {
		return s.tr.w.SystemError(fmt.Sprintf("%s offers no session mode that asks before it acts (its modes: %s; now %s): it may run commands or change files without asking; yume-cli reports each, but cannot stop one it is not asked about",
			s.agent, modeNames(sm.modes), cmp.Or(choice.mode.ID, sm.current)))
	}
	return nil
}

// ownToggles turns off the agent's on/off config options whose words say
// they let calls run unasked (Cline's auto_approve, "Automatically
// approve all tool calls without asking for permission"), with
// session/set_config_option, unless yume-cli's permission mode is auto
// (its policy would allow them anyway): yume-cli owns the permission
// mode. One already off is left as it is. Each change is a notice; a
// refusal a system error. Only a failure to write our own stdout is
// returned.
func (s *acpSession) ownToggles(ctx context.Context, sessionID string, toggles []acpToggle) error {
	if s.opts.PermissionMode == permission.Auto {
		return nil
	}
	for _, t := range toggles {
		if !t.autoApproves() || t.value != nil && !*t.value {
			continue
		}
		_, err := s.conn.call(ctx, "session/set_config_option", map[string]any{"sessionId": sessionID, "configId": t.ID, "type": "boolean", "value": false})
		s.mu.Lock()
		if err != nil {
			err = s.tr.w.SystemError(fmt.Sprintf("yume-cli could not turn off %s's option %s, which lets it run calls without asking (%v): %s may run commands or change files without asking; each is still reported",
				s.agent, modeNames([]acpMode{t.acpMode}), err, s.agent))
		} else {
			if s.offToggles == nil {
				s.offToggles = map[string]acpToggle{}
			}
			s.offToggles[t.ID] = t
			err = s.tr.w.Notice(fmt.Sprintf("yume-cli turned off %s's option %s (it lets the agent run calls without asking): yume-cli's permission mode %s answers what it asks",
				s.agent, modeNames([]acpMode{t.acpMode}), s.opts.PermissionMode))
		}
		s.mu.Unlock()
		if err != nil {
			return err
		}
	}
	return nil
}

// togglesChanged hears the agent's config_option_update (s.mu held): an
// option yume-cli turned off that is on again is said, as a system error,
// and turned off again (maxModeRestores times at most).
func (s *acpSession) togglesChanged(ctx context.Context, params json.RawMessage) error {
	var n struct {
		SessionID string `json:"sessionId"`
		Update    struct {
			SessionUpdate string         `json:"sessionUpdate"`
			ConfigOptions []configOption `json:"configOptions"`
		} `json:"update"`
	}
	if len(s.offToggles) == 0 || json.Unmarshal(params, &n) != nil || n.Update.SessionUpdate != "config_option_update" {
		return nil
	}
	for _, t := range configToggles(n.Update.ConfigOptions) {
		was, ok := s.offToggles[t.ID]
		if !ok || t.value == nil || !*t.value || s.modeRestores >= maxModeRestores {
			continue
		}
		s.modeRestores++
		params := map[string]any{"sessionId": n.SessionID, "configId": t.ID, "type": "boolean", "value": false}
		go func() { _, _ = s.conn.call(ctx, "session/set_config_option", params) }() // Best effort: an agent that refuses keeps it on, as said.
		if err := s.tr.w.SystemError(fmt.Sprintf("%s turned its option %s back on, which lets it run calls without asking; yume-cli turns it off again",
			s.agent, modeNames([]acpMode{was.acpMode}))); err != nil {
			return err
		}
	}
	return nil
}

// maxModeRestores bounds how often an agent that keeps leaving the mode
// that asks is put back in it.
const maxModeRestores = 3

// modeChanged hears the agent's current_mode_update (s.mu held): an agent
// that leaves the mode yume-cli put it in for one that does not ask (its
// own plan mode ending in "accept edits", a mode a permission option
// switched to) is said to, as a system error, and put back.
func (s *acpSession) modeChanged(ctx context.Context, params json.RawMessage) error {
	var n struct {
		SessionID string `json:"sessionId"`
		Update    struct {
			SessionUpdate string `json:"sessionUpdate"`
			CurrentModeID string `json:"currentModeId"`
		} `json:"update"`
	}
	if json.Unmarshal(params, &n) != nil || n.Update.SessionUpdate != "current_mode_update" ||
		s.wantMode.class != modeAsks || n.Update.CurrentModeID == s.wantMode.mode.ID {
		return nil
	}
	to := acpMode{ID: n.Update.CurrentModeID}
	for _, m := range s.modes.modes {
		if m.ID == to.ID {
			to = m
		}
	}
	if c, _ := classifyMode(to); c == modeAsks || s.modeRestores >= maxModeRestores {
		return nil
	}
	s.modeRestores++
	back := s.wantMode.mode.ID
	method, params2 := "session/set_mode", map[string]any{"sessionId": n.SessionID, "modeId": back}
	if s.modes.configID != "" {
		method, params2 = "session/set_config_option", map[string]any{"sessionId": n.SessionID, "configId": s.modes.configID, "value": back}
	}
	go func() { _, _ = s.conn.call(ctx, method, params2) }() // Best effort: an agent that refuses keeps its mode, as said.
	return s.tr.w.SystemError(fmt.Sprintf("%s switched itself to its session mode %s, which does not ask before it acts; yume-cli puts it back in %s",
		s.agent, modeNames([]acpMode{to}), modeNames([]acpMode{s.wantMode.mode})))
}

package structured

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// An ACP agent may offer session modes (session/new's modes, or a config
// option of category "mode") that decide whether it asks before it acts:
// Claude's adapter starts some sessions in "auto" (the agent decides),
// Codex's in one that runs commands in its sandbox unasked, Qwen's in a
// classifier's. yume-cli owns the permission mode, so it picks the mode
// that asks before changes and answers the questions itself (ask the GUI,
// the guard, auto, deny). Modes are told apart by what their ids, names
// and descriptions say, not by one agent's wording.

// acpMode is one session mode an agent offers.
type acpMode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// modeClass is what a mode says about asking.
type modeClass int

const (
	modeNeutral modeClass = iota // says nothing about asking (opencode's "build")
	modeAsks                     // asks before changes ("Manual: always ask", "Prompts for approval")
	modeLoose                    // lets some or all calls run unasked (accept edits, auto, yolo, don't ask)
	modePlan                     // plans only, runs nothing: not a working mode
)

func (c modeClass) String() string {
	return [...]string{"neutral", "asks", "runs calls unasked", "plan only"}[c]
}

var (
	// modeNoAsk are phrases of a mode that does not ask: negations first
	// ("don't ask", "without approval"), so "ask" in them is not read as
	// asking.
	modeNoAsk = lazyre.New(`\b(?:do ?n[o']?t|never|without|no|skips?|skipping|bypass(?:es|ing)?)\s+(?:\w+\s+){0,2}(?:ask|asking|prompt|prompting|approvals?|confirm|confirmation|permissions?|user interaction)\w*`)
	// modeAllows are phrases of a mode that lets calls run by itself.
	modeAllows = lazyre.New(`\b(?:yolo|bypass\w*|full[ -]?access|dangerously|unrestricted|autonomous\w*|autopilot|allow[ -]?all|approves? all|accepts? all|auto[ -]?(?:approv|accept|allow|run|execut)\w*|automatically (?:approv|accept|allow|run|execut)\w*|handles? (?:\w+ )?permission|decides? (?:\w+ )?(?:itself|by itself|on its own)|classifier|trust(?:ed|s)? (?:all|every)|deny if not|denies (?:anything|everything|what))`)
	// modeCapable are a description's words for what the agent may do by
	// itself ("can read and edit files … and run commands").
	modeCapable = lazyre.New(`\bcan\b[^.]*\b(?:edit|write|modify|run|execute|delete)\b`)
	// modeAutoWord is "auto" as the mode's own word (its id or name).
	modeAutoWord = lazyre.New(`\bauto\b`)
	// modeStrongAsk are phrases of a mode that asks before changes.
	modeStrongAsk = lazyre.New(`\b(?:always ask|ask(?:s|ing)? (?:\w+ )?(?:before|first|every|each|for)|approval (?:is )?(?:required|needed)|requires? (?:\w+ )?approvals?|needs? (?:\w+ )?approvals?|confirm(?:s|ation)? (?:before|each|every)|manual\w*|untrusted|read[ -]?only|on[ -]request|ask mode)\b`)
	// modeWeakAsk are words of an ordinary mode that asks as the agent
	// usually does.
	modeWeakAsk = lazyre.New(`\b(?:prompts? (?:\w+ )?for|asks?|approvals?|permissions? (?:prompt|request)s?|default|standard|normal|safe|careful|cautious|supervised|review)\b`)
	// modePlanning are words of a mode that only plans or reads.
	modePlanning = lazyre.New(`\b(?:plan|planning|architect|analy[sz]e only|no (?:actual )?tool execution|do(?:es)? not (?:modify|execute|run|change|edit)|without (?:making )?changes|ask only|chat only)\b`)
)

// modeText is a mode's words, lower case: its id split at camel case,
// dashes, underscores and a URL's path (…/session-modes#agent is
// "agent"), its name and its description.
func modeText(m acpMode) (own, desc string) {
	id := m.ID
	if i := strings.LastIndexAny(id, "#/"); i >= 0 && strings.Contains(id, ":") {
		id = id[i+1:]
	}
	var b strings.Builder
	prev := rune(0)
	for _, r := range id {
		switch {
		case r == '-' || r == '_' || r == '.':
			b.WriteByte(' ')
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	own = strings.ToLower(b.String() + " " + m.Name)
	own = strings.ReplaceAll(own, "dont", "don't")
	return own, strings.ToLower(m.Description)
}

// classifyMode says what a mode does about asking, and how strongly it
// says it asks (a higher score asks more).
func classifyMode(m acpMode) (modeClass, int) {
	own, desc := modeText(m)
	text := own + " . " + desc
	if modePlanning.MatchString(own) || modePlanning.MatchString(desc) && !modeStrongAsk.MatchString(desc) {
		return modePlan, 0
	}
	loose := 0
	if modeNoAsk.MatchString(text) {
		loose += 4
		text = modeNoAsk.ReplaceAllString(text, " ")
	}
	if modeAllows.MatchString(text) {
		loose += 3
	}
	if modeAutoWord.MatchString(own) || strings.Contains(own, "accept edits") || strings.Contains(own, "auto edit") {
		loose += 2
	}
	if modeCapable.MatchString(desc) {
		loose += 2
	}
	ask := 3 * len(modeStrongAsk.FindAllString(text, -1))
	ask += len(modeWeakAsk.FindAllString(modeStrongAsk.ReplaceAllString(text, " "), -1))
	switch {
	case ask > loose:
		return modeAsks, ask - loose
	case loose > 0:
		return modeLoose, 0
	}
	return modeNeutral, 0
}

// modeChoice is the mode yume-cli wants an agent in.
type modeChoice struct {
	mode  acpMode
	class modeClass
	// change: the agent is not in it yet (set it).
	change bool
}

// pickMode chooses among an agent's modes the one that asks most before
// changes (the current one on a tie). Without one that asks, the agent
// stays where it is, unless its mode is known to run calls unasked (or
// only to plan) and a neutral one is offered. ok false when the agent
// offers no modes.
func pickMode(modes []acpMode, current string) (modeChoice, bool) {
	if len(modes) == 0 {
		return modeChoice{}, false
	}
	best, bestScore := -1, 0
	cur, curClass := -1, modeNeutral
	neutral := -1
	for i, m := range modes {
		c, score := classifyMode(m)
		if m.ID == current {
			cur, curClass = i, c
		}
		if c == modeNeutral && neutral < 0 {
			neutral = i
		}
		if c == modeAsks && (best < 0 || score > bestScore || score == bestScore && m.ID == current) {
			best, bestScore = i, score
		}
	}
	switch {
	case best >= 0:
		return modeChoice{mode: modes[best], class: modeAsks, change: modes[best].ID != current}, true
	case cur >= 0 && (curClass == modeNeutral || neutral < 0):
		return modeChoice{mode: modes[cur], class: curClass}, true
	case cur >= 0:
		return modeChoice{mode: modes[neutral], class: modeNeutral, change: true}, true
	}
	// The agent's mode is none of those it lists: it stays, not known.
	return modeChoice{mode: acpMode{ID: current}, class: modeNeutral}, true
}

// sessionModes are the modes a session/new or session/load result offers:
// its modes, else its config option of category "mode" (configId set).
type sessionModes struct {
	current  string
	modes    []acpMode
	configID string // set: switched with session/set_config_option
}

// readSessionModes reads the modes of a session/new or session/load
// result.
func readSessionModes(res json.RawMessage) sessionModes {
	var r struct {
		Modes *struct {
			CurrentModeID  string    `json:"currentModeId"`
			AvailableModes []acpMode `json:"availableModes"`
		} `json:"modes"`
		ConfigOptions []struct {
			ID           string          `json:"id"`
			Category     string          `json:"category"`
			Type         string          `json:"type"`
			CurrentValue json.RawMessage `json:"currentValue"`
			Options      json.RawMessage `json:"options"`
		} `json:"configOptions"`
	}
	if json.Unmarshal(res, &r) != nil {
		return sessionModes{}
	}
	if r.Modes != nil && len(r.Modes.AvailableModes) > 0 {
		return sessionModes{current: r.Modes.CurrentModeID, modes: r.Modes.AvailableModes}
	}
	for _, o := range r.ConfigOptions {
		if o.Category != "mode" && (o.Category != "" || o.ID != "mode") || o.Type != "" && o.Type != "select" {
			continue
		}
		var cur string
		_ = json.Unmarshal(o.CurrentValue, &cur) // Not a string: no current mode.
		return sessionModes{current: cur, modes: configModes(o.Options), configID: o.ID}
	}
	return sessionModes{}
}

// configModes reads a select option's values, flat or in groups.
func configModes(raw json.RawMessage) []acpMode {
	var items []struct {
		Value       string          `json:"value"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Options     json.RawMessage `json:"options"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	var out []acpMode
	for _, it := range items {
		if len(it.Options) > 0 {
			out = append(out, configModes(it.Options)...)
			continue
		}
		if it.Value != "" {
			out = append(out, acpMode{ID: it.Value, Name: it.Name, Description: it.Description})
		}
	}
	return out
}

// modeNames lists modes for a message: "Auto (auto), Plan (plan)".
func modeNames(modes []acpMode) string {
	var names []string
	for _, m := range modes {
		switch {
		case m.Name != "" && m.Name != m.ID:
			names = append(names, m.Name+" ("+m.ID+")")
		default:
			names = append(names, m.ID)
		}
	}
	return strings.Join(names, ", ")
}

// ownMode puts the agent in the session mode that asks before changes,
// where it offers modes, so that yume-cli's permission mode answers its
// questions; where none asks, a system error (shown by Yume) says so. In
// auto mode an agent yume-cli knows by name keeps the allow-all its
// command line set. Only a failure to write our own stdout is returned.
func (s *acpSession) ownMode(ctx context.Context, sessionID string, res json.RawMessage) error {
	if s.autoName != "" {
		return nil
	}
	sm := readSessionModes(res)
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

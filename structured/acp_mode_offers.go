package structured

import (
	"encoding/json"
	"strings"
)

// sessionModes are the modes a session/new or session/load result offers:
// its modes, else its config option of category "mode" (configId set);
// and its on/off config options.
type sessionModes struct {
	current  string
	modes    []acpMode
	configID string // set: switched with session/set_config_option
	toggles  []acpToggle
}

// acpToggle is a boolean config option (Cline's auto_approve, "Auto-approve
// tools"): its words, and its value (nil: not said).
type acpToggle struct {
	acpMode
	value *bool
}

// autoApproves reports whether a toggle's words say that on, it lets
// calls run unasked.
func (t acpToggle) autoApproves() bool {
	c, _ := classifyMode(t.acpMode)
	return c == modeLoose
}

// readSessionModes reads the modes of a session/new or session/load
// result.
func readSessionModes(res json.RawMessage) sessionModes {
	var r struct {
		Modes *struct {
			CurrentModeID  string    `json:"currentModeId"`
			AvailableModes []acpMode `json:"availableModes"`
		} `json:"modes"`
		ConfigOptions []configOption `json:"configOptions"`
	}
	if json.Unmarshal(res, &r) != nil {
		return sessionModes{}
	}
	sm := sessionModes{toggles: configToggles(r.ConfigOptions)}
	if r.Modes != nil && len(r.Modes.AvailableModes) > 0 {
		sm.current, sm.modes = r.Modes.CurrentModeID, r.Modes.AvailableModes
		return sm
	}
	for _, o := range r.ConfigOptions {
		if o.Category != "mode" && (o.Category != "" || o.ID != "mode") || o.Type != "" && o.Type != "select" {
			continue
		}
		var cur string
		_ = json.Unmarshal(o.CurrentValue, &cur) // Not a string: no current mode.
		sm.current, sm.modes, sm.configID = cur, configModes(o.Options), o.ID
		return sm
	}
	return sm
}

// configOption is one of a session's config options.
type configOption struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	Category     string          `json:"category"`
	Type         string          `json:"type"`
	CurrentValue json.RawMessage `json:"currentValue"`
	Options      json.RawMessage `json:"options"`
}

// configToggles are the boolean options among a session's config options.
func configToggles(opts []configOption) []acpToggle {
	var out []acpToggle
	for _, o := range opts {
		if o.Type != "boolean" {
			continue
		}
		t := acpToggle{acpMode: acpMode{ID: o.ID, Name: o.Name, Description: o.Description}}
		var b bool
		if json.Unmarshal(o.CurrentValue, &b) == nil {
			t.value = &b
		}
		out = append(out, t)
	}
	return out
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

package permission

// Policy is one session's permission state: the mode, whether the GUI can
// be asked, who answers when it cannot, and answers that arrived before
// their question (the GUI saw a tool_use and answered before the agent
// asked). It is not safe for concurrent use: callers hold their own lock.
type Policy struct {
	mode     Mode
	fallback Fallback
	channel  bool
	early    map[string]Answer // tool_use id -> answer
	dangers  *Dangers
}

// New starts a policy in mode m; channel says whether the GUI can answer.
// With nobody to ask, the guard answers default mode's questions
// (SetFallback changes that).
func New(m Mode, channel bool) *Policy {
	if m == "" {
		m = Default
	}
	return &Policy{mode: m, fallback: FallbackGuard, channel: channel, early: map[string]Answer{}, dangers: DefaultDangers()}
}

// SetDangers replaces the dangerous-command set (nil: none).
func (p *Policy) SetDangers(d *Dangers) { p.dangers = d }

// Ready resolves the dangerous-command set now (Dangers.Ready).
func (p *Policy) Ready() { p.dangers.Ready() }

// SetFallback says who answers default mode's questions when nobody can
// be asked ("" keeps the guard).
func (p *Policy) SetFallback(f Fallback) {
	if f != "" {
		p.fallback = f
	}
}

// Assess says what the dangerous set finds in a call: a command that
// matches a rule, a file written outside the working directory or to a
// protected path, a credential read.
func (p *Policy) Assess(tool string, input map[string]any) Danger {
	return p.dangers.Judge(tool, input)
}

// Mode is the current mode.
func (p *Policy) Mode() Mode { return p.mode }

// SetMode changes the mode from the next decision on and returns the
// notice that says so.
func (p *Policy) SetMode(m Mode) string {
	p.mode = m
	return ModeChanged(m)
}

// Channel reports whether the GUI can still be asked.
func (p *Policy) Channel() bool { return p.channel }

// CloseChannel records stdin's end: from now on nobody can be asked.
func (p *Policy) CloseChannel() { p.channel = false }

// Keep holds an answer for tool_use id until its question comes.
func (p *Policy) Keep(id string, a Answer) { p.early[id] = a }

// AnsweredBy is the approved_by of a question asked now, when yume-cli
// answers it for nobody (the guard; no_channel: auto), "" when the GUI
// or the mode does. A call's tool_use written as it is asked carries it.
func (p *Policy) AnsweredBy(tool string, input map[string]any) string {
	if p.channel || p.mode != Default || p.fallback == FallbackDeny {
		return ""
	}
	return Decide(p.mode, p.fallback, "", p.Assess(tool, input), false).By
}

// Decide decides about tool_use id, described by what, with what the
// dangerous set found in it (see Assess). An answer kept for it wins over
// the mode (the person decided); it is used once.
func (p *Policy) Decide(id, what string, danger Danger) (Decision, *Answer) {
	if a, ok := p.early[id]; ok {
		delete(p.early, id)
		if a.Allow {
			return Decision{Verdict: Allow}, &a
		}
		return Decision{Verdict: Refuse, Message: a.Denial()}, &a
	}
	return Decide(p.mode, p.fallback, what, danger, p.channel), nil
}

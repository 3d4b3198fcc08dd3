package permission

// Policy is one session's permission state: the mode, whether the GUI can
// be asked, and answers that arrived before their question (the GUI saw a
// tool_use and answered before the agent asked). It is not safe for
// concurrent use: callers hold their own lock.
type Policy struct {
	mode    Mode
	channel bool
	early   map[string]Answer // tool_use id -> answer
	dangers *Dangers
}

// New starts a policy in mode m; channel says whether the GUI can answer.
func New(m Mode, channel bool) *Policy {
	if m == "" {
		m = Default
	}
	return &Policy{mode: m, channel: channel, early: map[string]Answer{}, dangers: DefaultDangers()}
}

// SetDangers replaces the dangerous-command set (nil: none).
func (p *Policy) SetDangers(d *Dangers) { p.dangers = d }

// Assess says why a call is dangerous ("" if it is not): a command that
// matches the dangerous set, or a file written outside the working
// directory.
func (p *Policy) Assess(tool string, input map[string]any) string {
	return p.dangers.Call(tool, input)
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

// Decide decides about tool_use id, described by what, dangerous for the
// reason danger ("" if not: see Assess). An answer kept for it wins over
// the mode (the person decided); it is used once.
func (p *Policy) Decide(id, what, danger string) (Decision, *Answer) {
	if a, ok := p.early[id]; ok {
		delete(p.early, id)
		if a.Allow {
			return Decision{Verdict: Allow}, &a
		}
		return Decision{Verdict: Refuse, Message: a.Denial()}, &a
	}
	return Decide(p.mode, what, danger, p.channel), nil
}

package providers

import "fmt"

// SideAgentsEnv is the environment one run of p gets for its side
// agents, the requests it makes on its own that run tools without asking
// (Qwen Code's memory agents, qwen_side.go). They may run only where
// yume-cli reports every call they make: in auto mode (the permission
// mode that lets tools run unasked), in a mode that waits for them before
// its result (waits). Everywhere else they are turned off for the run:
// in default, interactive and deny modes because they never ask, and
// where the program ends right after the turn (over ACP at stdin's end,
// a TUI when yume-cli quits it) because they would be cut off half-way,
// a call run and never logged.
//
// YUME_SIDE_AGENTS=keep leaves them as the user's settings say (Qwen's one
// switch also takes its saved memories out of the prompt): their calls
// are then reported wherever the program logged them in time.
func SideAgentsEnv(p *Provider, auto, waits bool, getenv func(string) string) ([]string, error) {
	if p == nil || p.SideAgentsOff == nil || auto && waits || getenv(KeepSideAgents) == "keep" {
		return nil, nil
	}
	env, err := p.SideAgentsOff(getenv)
	if err != nil {
		return nil, fmt.Errorf("%s not started: yume-cli turns its side agents off (they run tools without asking) and could not: %w", p.Name, err)
	}
	return env, nil
}

// KeepSideAgents is the variable that, set to "keep", leaves a program's
// side agents on (SideAgentsEnv).
const KeepSideAgents = "YUME_SIDE_AGENTS"

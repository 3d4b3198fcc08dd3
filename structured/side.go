package structured

import (
	"fmt"

	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/transcript"
)

// reportSideCalls makes the turn report, just before its result (after
// any other before-end step), the calls the provider's side requests made
// in its session, which its stream never shows (providers.SideCalls:
// Qwen Code's managed memory agents). launch says where its transcript is,
// asked at the end (the provider's session id is known by then). agent,
// when set, is the provider the program is (an ACP command after --),
// else the turn's own.
func (t *turn) reportSideCalls(agent *providers.Provider, launch func() providers.Launch) {
	if agent == nil {
		agent = t.provider
	}
	before := t.beforeEnd
	t.beforeEnd = func() error {
		if before != nil {
			if err := before(); err != nil {
				return err
			}
		}
		l := launch()
		l.Session = t.providerSession
		return t.sideCalls(providers.SideCalls(agent, l))
	}
}

// sideCalls writes each side call's tool_use and tool_result.
func (t *turn) sideCalls(evs []transcript.Event) error {
	for _, e := range evs {
		var err error
		switch e.Kind {
		case transcript.ToolCall:
			err = t.toolUse(e.ID, e.Name, e.Input)
		case transcript.ToolResult:
			err = t.toolResult(e.ID, e.Output, e.IsError)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// sideAgentsEnv is the environment that turns agent's side agents off for
// this run where they may not run (providers.SideAgentsEnv), said under
// --verbose.
func sideAgentsEnv(opts Options, agent *providers.Provider, perm permission.Mode, waits bool) ([]string, error) {
	env, err := providers.SideAgentsEnv(agent, perm == permission.Auto, waits, getenv(opts.Env))
	if err == nil && len(env) > 0 && opts.Verbose {
		fmt.Fprintf(opts.Stderr, "yume-cli: %s's side agents are off for this run: they run tools without asking, and here yume-cli could not report every call\n", agent.Name)
	}
	return env, err
}

package run

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/providers"
)

// drive makes the provider as this run drives it (cfg.provider() from now
// on): the registry's descriptor with the agent's role on its command
// lines where it takes one (--agent-type, providers.Instructed) and, in
// auto mode under the guard, each structured mode that can ask started in
// its asking mode: no allow-all to name, no side agents that run tools
// unasked, every call put to yume-cli's policy, which approves all but
// what the guard flags. A mode that cannot ask (opencode's, Kilo's and
// Qwen Code's headless JSON, Codex's exec) keeps its allow-all when run in
// auto mode, and a warning says the guard cannot stop its calls there.
// The TUI's mode is launchTUI's (cliMode). What the run could not do is
// said after init, on w.
func (cfg *Config) drive(w *emit.Writer) {
	base := cfg.Provider
	p := base.Instructed(cfg.agentInstruction())
	cfg.sayAgentType(base, p != base, w)
	if cfg.autoGuardHolds() && len(p.Structured) > 0 {
		c := *p
		c.Structured = slices.Clone(p.Structured)
		var once sync.Once
		for i, m := range c.Structured {
			command, asks := m.Command, !m.CannotAsk && !m.AsksNothing
			if asks {
				c.Structured[i].AutoName = ""
				c.Structured[i].WaitsForSideAgents = false
			}
			c.Structured[i].Command = func(r providers.Request) providers.Invocation {
				switch {
				case r.Auto && asks:
					r.Auto = false // it asks; the policy, in auto mode, answers
				case r.Auto:
					once.Do(func() { _ = w.SystemAfterInit("warning", allowAllWarning(base, m)) }) // Best effort, as every notice.
				}
				return command(r)
			}
		}
		p = &c
	}
	cfg.driven = p
}

// allowAllWarning says that auto mode runs m with its own allow-all: the
// guard cannot stop what it runs.
func allowAllWarning(p *providers.Provider, m providers.Mode) string {
	others := slices.DeleteFunc(p.Modes(""), func(n string) bool { return n == m.Name })
	if p.Profile != "" {
		others = append(others, "pty")
	}
	allowAll := m.AutoName
	if allowAll == "" {
		allowAll = "its own allow-all"
	}
	return fmt.Sprintf("yume-cli: %s's %s mode cannot ask before a call, so auto mode runs it with %s: the guard flags what it sees but cannot stop it; --mode %s asks, and keeps the guard's list",
		p.Title, m.Name, allowAll, strings.Join(others, " or --mode "))
}

// sayAgentType says where --agent-type's role did not reach the agent (a
// system notice), and, with --verbose, where it did.
func (cfg *Config) sayAgentType(p *providers.Provider, given bool, w *emit.Writer) {
	if cfg.AgentType == "" {
		return
	}
	if given && len(cfg.Command) == 0 {
		if cfg.Verbose {
			fmt.Fprintf(cfg.IO.ErrOut, "yume-cli: --agent-type %s: the role goes to %s as an instruction (%s)\n", cfg.AgentType, p.Title, p.Instructions("…")[0])
		}
		return
	}
	why := p.Title + " takes no instruction yume-cli can add on its command line"
	if len(cfg.Command) > 0 {
		why = "the command line after -- is run as given"
	}
	_ = w.SystemAfterInit("notice", fmt.Sprintf("yume-cli: --agent-type %s: %s, so the agent works without the role's instruction", cfg.AgentType, why)) // Best effort, as every notice.
}

package run

import (
	"strings"
)

// Yume's background agents each have a role (Yume's AgentType): yume-cli
// gives it to the agent as an instruction where the CLI takes one on its
// command line (Claude Code's and Qwen Code's --append-system-prompt,
// Codex's developer_instructions), and says so where it cannot.

// agentTypes are the roles Yume knows (src/renderer/types/backgroundAgents.ts),
// each with what it asks of the agent.
var agentTypes = []struct{ name, role string }{
	{"architect", "plan, design and break the task into steps; read the code before you propose, and change code only where the task asks for it"},
	{"explorer", "find, read and explain the code; answer from what the files say, naming them, and leave them as they are unless the task asks otherwise"},
	{"implementer", "write, edit and build the code; make the change the task asks for, build and test it, and keep it to what the task needs"},
	{"guardian", "review, audit and verify; look for bugs, security problems and missing tests, and report what you find rather than rewrite"},
	{"specialist", "do the domain-specific work the task calls for, with the expertise it needs"},
}

// AgentTypes are the roles' names, for --agent-type's help.
func AgentTypes() []string {
	var names []string
	for _, a := range agentTypes {
		names = append(names, a.name)
	}
	return names
}

// AgentTypeOf takes a role by its name or as Yume's Rust side spells it
// (yume-implementer): the role's name, or false for none.
func AgentTypeOf(given string) (string, bool) {
	name := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(given)), "yume-")
	for _, a := range agentTypes {
		if a.name == name {
			return name, true
		}
	}
	return "", false
}

// agentInstruction is what the agent is told of its role ("" without
// --agent-type).
func (cfg *Config) agentInstruction() string {
	for _, a := range agentTypes {
		if a.name == cfg.AgentType {
			return "You are Yume's " + a.name + " agent, running in the background: nobody answers questions or approves anything while you work, so carry the task through on your own, and end with a short report of what you did and what is left. As the " +
				a.name + ", " + a.role + "."
		}
	}
	return ""
}

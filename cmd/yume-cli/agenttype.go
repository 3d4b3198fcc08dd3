package main

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

func agentTypeNames() []string {
	var names []string
	for _, a := range agentTypes {
		names = append(names, a.name)
	}
	return names
}

// checkAgentType takes a role by its name or as Yume's Rust side spells it
// (yume-implementer); anything else is a usage error naming the roles.
func (o *StartOptions) checkAgentType() error {
	if o.AgentType == "" {
		return nil
	}
	name := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(o.AgentType)), "yume-")
	for _, a := range agentTypes {
		if a.name == name {
			o.AgentType = name
			return nil
		}
	}
	return usagef("invalid value %q for --agent-type: use one of %s (yume-%s and the like too)", o.AgentType, strings.Join(agentTypeNames(), ", "), agentTypes[0].name)
}

// agentInstruction is what the agent is told of its role ("" without
// --agent-type).
func (o *StartOptions) agentInstruction() string {
	for _, a := range agentTypes {
		if a.name == o.AgentType {
			return "You are Yume's " + a.name + " agent, running in the background: nobody answers questions or approves anything while you work, so carry the task through on your own, and end with a short report of what you did and what is left. As the " +
				a.name + ", " + a.role + "."
		}
	}
	return ""
}

package main

import "sort"

// provider is a CLI yume-cli knows how to drive.
type provider struct {
	name    string
	profile string // heuristics profile for the PTY path
	bin     string // default binary name, looked up in PATH
	summary string
}

var providerTable = []provider{
	{"generic", "generic", "", "any program that asks y/n questions or shows a menu (-- CMD ARGS…)"},
	{"gh-copilot", "gh-copilot", "gh", "legacy `gh copilot suggest` (GitHub Copilot in the CLI)"},
	{"copilot", "copilot", "copilot", "GitHub Copilot CLI"},
	{"claude", "claude", "claude", "Claude Code"},
	{"gemini", "gemini", "gemini", "Gemini CLI"},
	{"codex", "codex", "codex", "OpenAI Codex CLI"},
	{"aider", "aider", "aider", "aider"},
}

// providerAliases are other names callers use: Yume's spawner says "openai".
var providerAliases = map[string]string{
	"openai":         "codex",
	"copilot-legacy": "gh-copilot",
}

func lookupProvider(name string) (provider, bool) {
	if real, ok := providerAliases[name]; ok {
		name = real
	}
	for _, p := range providerTable {
		if p.name == name {
			return p, true
		}
	}
	return provider{}, false
}

func providerNames() []string {
	var names []string
	for _, p := range providerTable {
		names = append(names, p.name)
	}
	for a := range providerAliases {
		names = append(names, a)
	}
	sort.Strings(names)
	return names
}

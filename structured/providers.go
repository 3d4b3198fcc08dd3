package structured

// provider describes one known CLI.
type provider struct {
	name  string
	bin   string   // default binary name in PATH
	tools []string // Claude tool names it can run, for system/init
	// minJSON and minACP are the first versions with the JSON mode and ACP
	// ("" = never). Versions older than these fall back to PTY in auto mode.
	// Copilot's come from its changelog (0.0.422 JSONL, 0.0.397 --acp);
	// the others are estimates: verified live are claude 2.1.197, codex
	// 0.169.0, copilot 1.0.102 and gemini 0.61.0.
	minJSON, minACP string
}

// providers is the table of known CLIs, in the order doctor lists them.
var providers = []provider{
	{name: "claude", bin: "claude", minJSON: "1.0.0",
		tools: []string{"Task", "Bash", "Glob", "Grep", "Read", "Edit", "Write", "WebFetch", "TodoWrite", "WebSearch"}},
	{name: "codex", bin: "codex", minJSON: "0.44.0",
		tools: []string{"Bash", "Write", "Edit", "WebSearch", "TodoWrite"}},
	{name: "copilot", bin: "copilot", minJSON: "0.0.422", minACP: "0.0.397",
		tools: []string{"Bash", "Read", "Write", "Edit", "Glob", "Grep", "WebFetch", "WebSearch", "TodoWrite", "Task"}},
	{name: "gemini", bin: "gemini", minJSON: "0.11.0", minACP: "0.20.0",
		tools: []string{"Bash", "Read", "Write", "Edit", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "TodoWrite"}},
}

// Providers lists the provider names structured modes know.
func Providers() []string {
	out := make([]string, len(providers))
	for i, p := range providers {
		out[i] = p.name
	}
	return out
}

func lookupProvider(name string) (provider, bool) {
	for _, p := range providers {
		if p.name == name {
			return p, true
		}
	}
	return provider{}, false
}

// defaultTools is the tool list announced for provider when it does not
// list its own.
func defaultTools(name string) []string {
	p, _ := lookupProvider(name)
	return p.tools
}

package providers

// aider: PTY only, from its documented prompts.
func init() {
	register(&Provider{
		Name:       "aider",
		Title:      "aider",
		Bin:        "aider",
		Profile:    "aider",
		BaseURLEnv: "OPENAI_API_BASE",
		Install:    "install aider: https://aider.chat/docs/install.html",
		Tools:      []string{"Bash"},
	})
}

package providers

// The legacy `gh copilot suggest` extension: PTY only. yume-demo, the
// bundled offline stand-in, draws the same screens.
func init() {
	register(&Provider{
		Name:    "gh-copilot",
		Aliases: []string{"copilot-legacy"},
		Title:   "legacy `gh copilot suggest` (GitHub Copilot in the CLI)",
		Bin:     "gh",
		Bins:    []string{"yume-demo"},
		Profile: "gh-copilot",
		Install: "install the GitHub CLI and `gh extension install github/gh-copilot` (deprecated; the copilot provider is its successor)",
		Tools:   []string{"Bash"},
	})
}

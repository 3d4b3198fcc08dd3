package ptyhost

import "testing"

func TestIsSelfUpdate(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"npm update -g cline --tag latest --min-release-age=0", true},
		{"/usr/bin/npm i -g @continuedev/cli", true},
		{"npm install --global @nanocollective/nanocoder", true},
		{"npm -g install grok", true},
		{"pnpm add -g opencode-ai", true},
		{"yarn global add @openai/codex", true},
		{"bun add -g something", true},
		{"npm install", false},
		{"npm test -- -g", false},
		{"npm view cline version", false},
		{"node /x/npm-cli.js ls -g", false},
		{"git grep -g", false},
	} {
		if got := IsSelfUpdate(c.cmd); got != c.want {
			t.Errorf("IsSelfUpdate(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}

func TestIsSelfUpdateThroughAnInterpreter(t *testing.T) {
	for _, cmd := range []string{"node /usr/lib/node_modules/npm/bin/npm-cli.js update -g cline", "/bin/sh /tmp/bin/npm i -g x"} {
		if !IsSelfUpdate(cmd) {
			t.Errorf("IsSelfUpdate(%q) = false", cmd)
		}
	}
}

package providers

import (
	"slices"
	"strings"
	"testing"
)

// TestExportedOn: the ways shell profiles export a variable, and the
// lines that only look like it.
func TestExportedOn(t *testing.T) {
	cases := []struct {
		line string
		want []string
	}{
		{`export OPENAI_API_KEY=sk-1`, []string{"OPENAI_API_KEY"}},
		{`export OPENAI_API_KEY="sk 1" GEMINI_API_KEY`, []string{"OPENAI_API_KEY", "GEMINI_API_KEY"}},
		{`  export  GEMINI_API_KEY='x'  # mine`, []string{"GEMINI_API_KEY"}},
		{`export GEMINI_API_KEY=$(security find-generic-password -w -s gemini)`, []string{"GEMINI_API_KEY"}},
		{`[ -f ~/.keys ] && export ANTHROPIC_API_KEY=$(cat ~/.keys)`, []string{"ANTHROPIC_API_KEY"}},
		{`if true; then export A=1; fi`, []string{"A"}},
		{`declare -x CODEX_API_KEY=1`, []string{"CODEX_API_KEY"}},
		{`typeset -gx CODEX_API_KEY=1`, []string{"CODEX_API_KEY"}},
		{`set -gx GEMINI_API_KEY AIza`, []string{"GEMINI_API_KEY"}},
		{`set -Ux GEMINI_API_KEY AIza`, []string{"GEMINI_API_KEY"}},
		{`set --export GEMINI_API_KEY AIza`, []string{"GEMINI_API_KEY"}},
		{`# export GEMINI_API_KEY=AIza`, nil},
		{`GEMINI_API_KEY=AIza`, nil},         // not exported: no program sees it
		{`declare GEMINI_API_KEY=AIza`, nil}, // no -x
		{`set -g GEMINI_API_KEY AIza`, nil},  // fish, not exported
		{`echo export GEMINI_API_KEY=1`, nil},
		{`export -n GEMINI_API_KEY`, []string{"GEMINI_API_KEY"}}, // said as exported: a false alarm costs a look, a miss a first run
	}
	for _, c := range cases {
		if got := exportedOn(c.line); !slices.Equal(got, c.want) {
			t.Errorf("exportedOn(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// TestKeyInProfile: a key only a shell profile exports is said, with where
// to put it instead; a key the CLI finds anywhere else (the environment,
// the settings file's variables, its own .env or settings file, its login)
// is no problem. The key's value never appears.
func TestKeyInProfile(t *testing.T) {
	const secret = "AIzaSy-very-secret-value"
	cases := []struct {
		name     string
		provider string
		files    map[string]string
		env      map[string]string
		want     []string // substrings of the error; nil: no error
	}{
		{name: "zshrc only", provider: "gemini",
			files: map[string]string{".zshrc": "alias ll='ls -l'\nexport GEMINI_API_KEY=" + secret + "\n"},
			want: []string{"gemini finds no credentials when Yume starts it", "GEMINI_API_KEY is exported in ~/.zshrc (line 2)",
				"providers.gemini.env in /y/settings.yaml (GEMINI_API_KEY: your key)", "GEMINI_API_KEY=… in ~/.gemini/.env",
				"run `gemini` in a terminal and log in with Google"}},
		{name: "fish", provider: "qwen", files: map[string]string{".config/fish/conf.d/keys.fish": "set -gx OPENAI_API_KEY " + secret + "\n"},
			want: []string{"OPENAI_API_KEY is exported in ~/.config/fish/conf.d/keys.fish (line 1)", "~/.qwen/.env"}},
		{name: "bash_profile, claude", provider: "claude", files: map[string]string{".bash_profile": "export ANTHROPIC_API_KEY=" + secret + "\n"},
			want: []string{"~/.bash_profile (line 1)", `under "env" in ~/.claude/settings.json ("ANTHROPIC_API_KEY": "…")`}},
		{name: "codex logs in with the key", provider: "codex", files: map[string]string{".profile": "export OPENAI_API_KEY=" + secret + "\n"},
			want: []string{"~/.profile (line 1)", "printenv OPENAI_API_KEY | codex login --with-api-key"}},
		{name: "set in the environment", provider: "gemini", files: map[string]string{".zshrc": "export GEMINI_API_KEY=" + secret + "\n"},
			env: map[string]string{"GEMINI_API_KEY": secret}},
		{name: "in the CLI's .env", provider: "gemini",
			files: map[string]string{".zshrc": "export GEMINI_API_KEY=" + secret + "\n", ".gemini/.env": "GEMINI_API_KEY=" + secret + "\n"}},
		{name: "an empty .env line is no key", provider: "gemini",
			files: map[string]string{".zshrc": "export GEMINI_API_KEY=" + secret + "\n", ".gemini/.env": "GEMINI_API_KEY=\n"},
			want:  []string{"~/.zshrc (line 1)"}},
		{name: "in claude's settings env", provider: "claude",
			files: map[string]string{".zshrc": "export ANTHROPIC_API_KEY=" + secret + "\n", ".claude/settings.json": `{"env":{"ANTHROPIC_API_KEY":"` + secret + `"}}`}},
		{name: "logged in", provider: "codex",
			files: map[string]string{".zshrc": "export OPENAI_API_KEY=" + secret + "\n", ".codex/auth.json": `{"tokens":{}}`}},
		{name: "no profile", provider: "gemini"},
		{name: "a profile without the key", provider: "gemini", files: map[string]string{".zshrc": "export EDITOR=vim\n"}},
		{name: "nothing to check", provider: "aider", files: map[string]string{".zshrc": "export OPENAI_API_KEY=" + secret + "\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			tree(t, home, c.files)
			p, _ := Lookup(c.provider)
			e, ok := p.KeyInProfile(func(k string) string { return c.env[k] }, home)
			if ok != (c.want != nil) {
				t.Fatalf("KeyInProfile = %+v, %v; want %v", e, ok, c.want != nil)
			}
			if !ok {
				return
			}
			msg := p.ProfileKeyError(e, "/y/settings.yaml").Error()
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error lacks %q:\n%s", w, msg)
				}
			}
			if strings.Contains(msg, secret) {
				t.Errorf("the error shows the key: %s", msg)
			}
		})
	}
}

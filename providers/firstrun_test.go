package providers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFirstRun: credentials are looked for the way doctor looks for them;
// none found is one finding, for the login screen, that says what to run
// or set and where yume-cli looked.
func TestFirstRun(t *testing.T) {
	cases := []struct {
		name     string
		provider string
		env      map[string]string
		files    map[string]string // relative to home
		want     []string          // substrings of the one finding; nil: no finding
	}{
		{name: "claude bare", provider: "claude",
			want: []string{"no credentials found", "ANTHROPIC_API_KEY", "~/.claude/.credentials.json", "to log in, run `claude` once and log in, or set ANTHROPIC_API_KEY"}},
		{name: "claude api key", provider: "claude", env: map[string]string{"ANTHROPIC_API_KEY": "sk-ant-x"}},
		{name: "claude config without a login", provider: "claude", files: map[string]string{".claude.json": `{"theme":"dark"}`},
			want: []string{"to log in, run `claude`"}},
		{name: "claude logged in", provider: "claude", files: map[string]string{".claude.json": `{"oauthAccount":{"emailAddress":"a@b"}}`}},
		{name: "codex bare", provider: "codex",
			want: []string{"OPENAI_API_KEY, CODEX_API_KEY unset", "~/.codex/auth.json ($CODEX_HOME moves the first)", "run `codex login`"}},
		{name: "codex auth file", provider: "codex", files: map[string]string{".codex/auth.json": `{"tokens":{}}`}},
		{name: "codex home moved", provider: "codex", env: map[string]string{"CODEX_HOME": "{home}/elsewhere"},
			files: map[string]string{"elsewhere/auth.json": `{"tokens":{}}`}},
		{name: "codex home moved, empty", provider: "codex", env: map[string]string{"CODEX_HOME": "{home}/elsewhere"},
			want: []string{"run `codex login`"}},
		{name: "copilot bare", provider: "copilot", want: []string{"COPILOT_GITHUB_TOKEN", "run `copilot` and /login"}},
		{name: "copilot token", provider: "copilot", env: map[string]string{"GH_TOKEN": "gho_x"}},
		{name: "copilot trusted but not logged in", provider: "copilot",
			files: map[string]string{".copilot/config.json": `{"trusted_folders":["/w"],"logged_in_users":[]}`},
			want:  []string{"run `copilot` and /login"}},
		{name: "copilot logged in", provider: "copilot",
			files: map[string]string{".copilot/config.json": `{"last_logged_in_user":{"login":"me"}}`}},
		{name: "gemini bare", provider: "gemini", want: []string{"GEMINI_API_KEY", "~/.gemini/oauth_creds.json", "set GEMINI_API_KEY, or run `gemini` once"}},
		{name: "gemini key", provider: "gemini", env: map[string]string{"GEMINI_API_KEY": "AIza-x"}},
		{name: "gemini oauth", provider: "gemini", files: map[string]string{".gemini/oauth_creds.json": `{"refresh_token":"x"}`}},
		{name: "generic has nothing to check", provider: "generic"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, ok := Lookup(c.provider)
			if !ok {
				t.Fatalf("no provider %s", c.provider)
			}
			home := t.TempDir()
			for name, body := range c.files {
				path := filepath.Join(home, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			getenv := func(k string) string { return strings.ReplaceAll(c.env[k], "{home}", home) }
			got := p.FirstRun(getenv, home)
			if c.want == nil {
				if len(got) != 0 {
					t.Fatalf("findings %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Screen != ScreenLogin {
				t.Fatalf("findings %+v, want one for the login screen", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got[0].Text, w) {
					t.Errorf("finding %q does not say %q", got[0].Text, w)
				}
			}
			for _, v := range c.env {
				if v != "" && strings.Contains(got[0].Text, v) {
					t.Errorf("finding %q shows a variable's value", got[0].Text)
				}
			}
		})
	}
}

// TestFirstRunNote: the sentence an error adds leaves out what the error's
// own screen already says, and names the folder where no screen did.
func TestFirstRunNote(t *testing.T) {
	login := Finding{Screen: ScreenLogin, Text: "no credentials found; to log in, run `x login`"}
	other := Finding{Screen: "folder-trust", Text: "the folder is not trusted: run `x` in it"}
	cases := []struct {
		name, screen, cwd string
		findings          []Finding
		want              string
	}{
		{"trust screen, not logged in", "folder-trust", "/w", []Finding{login},
			"Also, no credentials found; to log in, run `x login`."},
		{"login screen: said already", ScreenLogin, "/w", []Finding{login}, ""},
		{"login screen, another finding", ScreenLogin, "/w", []Finding{login, other},
			"Also, the folder is not trusted: run `x` in it."},
		{"early exit: every finding", "", "/w", []Finding{login, other},
			"Before x can work in /w: no credentials found; to log in, run `x login`; the folder is not trusted: run `x` in it."},
		{"no folder known", "", "", []Finding{login}, "Before x can work: no credentials found; to log in, run `x login`."},
		{"nothing found", "folder-trust", "/w", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := firstRunNote("x", c.findings, c.screen, c.cwd); got != c.want {
				t.Errorf("firstRunNote = %q\nwant %q", got, c.want)
			}
		})
	}
}

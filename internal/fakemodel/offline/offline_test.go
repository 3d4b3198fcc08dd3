package offline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetup(t *testing.T) {
	cases := []struct {
		provider string
		file     string // config file under home that must exist ("": none)
		env      string // an env entry that must be set
	}{
		{"claude", ".claude.json", "ANTHROPIC_BASE_URL=http://127.0.0.1:1234"},
		{"codex", ".codex/config.toml", "FAKE_API_KEY=" + FakeKey},
		{"copilot", ".copilot/config.json", "COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:1234/v1"},
		{"gemini", ".gemini/settings.json", "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:1234"},
		{"opencode", ".config/opencode/opencode.json", "OPENCODE_DISABLE_AUTOUPDATE=true"},
		{"kilo", ".config/kilo/kilo.json", "KILO_TELEMETRY_LEVEL=off"},
		{"qwen", ".qwen/settings.json", "OPENAI_BASE_URL=http://127.0.0.1:1234/v1"},
		{"cline", ".cline/data/settings/providers.json", "CLINE_NO_AUTO_UPDATE=1"},
		{"cn", ".continue/index/globalContext.json", "CONTINUE_CLI_ENABLE_TELEMETRY=0"},
		{"cn", ContinueConfig, "SHELL=/bin/bash"},
		{"grok", "", "GROK_BASE_URL=http://127.0.0.1:1234/v1"},
		{"nanocoder", ".config/nanocoder/agents.config.json", "NODE_USE_ENV_PROXY=1"},
		{"nanocoder", NanocoderPreferences, "NODE_USE_ENV_PROXY=1"},
	}
	for _, c := range cases {
		t.Run(c.provider, func(t *testing.T) {
			sb, err := Setup(c.provider, t.TempDir(), "http://127.0.0.1:1234", "/opt/clis")
			if err != nil {
				t.Fatal(err)
			}
			if c.file != "" { // grok has only its variables
				b, err := os.ReadFile(filepath.Join(sb.Home, c.file))
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(c.file, ".json") && !json.Valid(b) {
					t.Errorf("%s is not JSON: %s", c.file, b)
				}
			}
			env := strings.Join(sb.Env, "\n")
			for _, want := range []string{c.env, "HOME=" + sb.Home, "HTTPS_PROXY=http://127.0.0.1:9", "NO_PROXY=127.0.0.1,localhost", "PATH=/opt/clis:"} {
				if !strings.Contains(env, want) {
					t.Errorf("env lacks %q", want)
				}
			}
			if fi, err := os.Stat(sb.Workspace); err != nil || !fi.IsDir() {
				t.Errorf("workspace: %v", err)
			}
			if sb.Model == "" {
				t.Error("no model")
			}
		})
	}
}

func TestSetupTrustsWorkspace(t *testing.T) {
	sb, err := Setup("claude", t.TempDir(), "http://127.0.0.1:1", "")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Projects map[string]struct {
			HasTrustDialogAccepted bool
		}
		CustomAPIKeyResponses struct{ Approved []string } `json:"customApiKeyResponses"`
	}
	b, _ := os.ReadFile(filepath.Join(sb.Home, ".claude.json"))
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if !cfg.Projects[sb.Workspace].HasTrustDialogAccepted || len(cfg.CustomAPIKeyResponses.Approved) != 1 ||
		!strings.HasSuffix(FakeKey, cfg.CustomAPIKeyResponses.Approved[0]) {
		t.Errorf("claude config %s", b)
	}
}

func TestSetupRejects(t *testing.T) {
	cases := []struct{ provider, url, want string }{
		{"claude", "https://api.anthropic.com", "not a 127.0.0.1"},
		{"claude", "http://10.0.0.1:80", "not a 127.0.0.1"},
		{"aider", "http://127.0.0.1:1", "unknown provider"},
	}
	for _, c := range cases {
		if _, err := Setup(c.provider, t.TempDir(), c.url); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Setup(%s, %s) err %v, want %q", c.provider, c.url, err, c.want)
		}
	}
}

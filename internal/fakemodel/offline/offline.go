// Package offline prepares a throwaway home directory and workspace in which
// a real coding CLI (claude, gemini, codex, copilot, opencode, kilo, qwen,
// and cline, cn, grok, nanocoder, which yume-cli has no profile for) runs
// without an account, talking only to a fakemodel server on 127.0.0.1:
// config files that skip onboarding, trust and update checks, and an
// environment whose proxies send any non-loopback request to a dead port.
package offline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FakeKey is the API key the sandboxes use; the fake server accepts anything.
const FakeKey = "sk-fake-0123456789abcdefghijklmnopqrstuvwxyz"

// deadProxy is a loopback port where nothing listens (discard, port 9).
const deadProxy = "http://127.0.0.1:9"

// Sandbox is a prepared home and workspace for one CLI run.
type Sandbox struct {
	Provider  string
	Home      string
	Workspace string
	// Env is the complete environment for the CLI (not added to os.Environ:
	// the real one may hold credentials that must not reach the CLI).
	Env []string
	// Model is a model name the CLI accepts in this sandbox.
	Model string
}

// Providers lists the CLIs Setup knows that yume-cli knows by name;
// Unnamed (unnamed.go) the others.
var Providers = []string{"claude", "codex", "copilot", "gemini", "opencode", "kilo", "qwen"}

// Setup creates dir/home and dir/ws and writes the provider's config so that
// it uses baseURL (the fake server, "http://127.0.0.1:PORT") for every model
// call. pathDirs are prepended to PATH (where the CLIs are installed).
func Setup(provider, dir, baseURL string, pathDirs ...string) (*Sandbox, error) {
	if !strings.HasPrefix(baseURL, "http://127.0.0.1:") {
		return nil, fmt.Errorf("offline: base URL %q is not a 127.0.0.1 http URL; start the fakemodel server first", baseURL)
	}
	sb := &Sandbox{Provider: provider, Home: filepath.Join(dir, "home"), Workspace: filepath.Join(dir, "ws")}
	for _, d := range []string{sb.Home, sb.Workspace, filepath.Join(sb.Home, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("offline: %w", err)
		}
	}
	path := strings.Join(append(pathDirs, os.Getenv("PATH")), string(os.PathListSeparator))
	sb.Env = []string{
		"HOME=" + sb.Home, "PATH=" + path, "TMPDIR=" + filepath.Join(sb.Home, "tmp"),
		"XDG_CONFIG_HOME=" + filepath.Join(sb.Home, ".config"), "XDG_CACHE_HOME=" + filepath.Join(sb.Home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(sb.Home, ".local/share"), "XDG_STATE_HOME=" + filepath.Join(sb.Home, ".local/state"),
		"LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1", "CI=1",
		"HTTPS_PROXY=" + deadProxy, "HTTP_PROXY=" + deadProxy, "ALL_PROXY=" + deadProxy,
		"https_proxy=" + deadProxy, "http_proxy=" + deadProxy, "all_proxy=" + deadProxy,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
	var err error
	switch provider {
	case "claude":
		err = sb.claude(baseURL)
	case "codex":
		err = sb.codex(baseURL)
	case "copilot":
		err = sb.copilot(baseURL)
	case "gemini":
		err = sb.gemini(baseURL)
	case "opencode":
		err = sb.opencode(baseURL)
	case "kilo":
		err = sb.kilo(baseURL)
	case "qwen":
		err = sb.qwen(baseURL)
	case "cline":
		err = sb.cline(baseURL)
	case "cn":
		err = sb.cn(baseURL)
	case "grok":
		err = sb.grok(baseURL)
	case "nanocoder":
		err = sb.nanocoder(baseURL)
	default:
		err = fmt.Errorf("offline: unknown provider %q (known: %s)", provider, strings.Join(append(append([]string{}, Providers...), Unnamed...), ", "))
	}
	if err != nil {
		return nil, err
	}
	return sb, nil
}

// writeJSON writes v as JSON to path, creating parent directories.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, string(b))
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("offline: %w", err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return fmt.Errorf("offline: %w", err)
	}
	return nil
}

func (sb *Sandbox) claude(baseURL string) error {
	sb.Model = "claude-sonnet-4-5"
	sb.Env = append(sb.Env, "ANTHROPIC_BASE_URL="+baseURL, "ANTHROPIC_API_KEY="+FakeKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1", "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1",
		// Fail fast on scripted errors instead of ten backed-off retries.
		"CLAUDE_CODE_MAX_RETRIES=0")
	return writeJSON(filepath.Join(sb.Home, ".claude.json"), map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark", "autoUpdates": false,
		"customApiKeyResponses": map[string]any{"approved": []string{FakeKey[len(FakeKey)-20:]}, "rejected": []string{}},
		"projects":              map[string]any{sb.Workspace: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
	})
}

func (sb *Sandbox) gemini(baseURL string) error {
	sb.Model = "gemini-2.5-flash"
	sb.Env = append(sb.Env, "GEMINI_API_KEY="+FakeKey, "GOOGLE_GEMINI_BASE_URL="+baseURL,
		"GEMINI_CLI_NO_RELAUNCH=true")
	return writeJSON(filepath.Join(sb.Home, ".gemini", "settings.json"), map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": false}},
		"telemetry": map[string]any{"enabled": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"general":   map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
		"model":     map[string]any{"name": sb.Model},
	})
}

func (sb *Sandbox) codex(baseURL string) error {
	sb.Model = "gpt-5.5"
	codexHome := filepath.Join(sb.Home, ".codex")
	sb.Env = append(sb.Env, "CODEX_HOME="+codexHome, "FAKE_API_KEY="+FakeKey)
	cfg := fmt.Sprintf(`model = %q
model_provider = "fake"
approval_policy = "on-request"
sandbox_mode = "workspace-write"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "%s/v1"
wire_api = "responses"
env_key = "FAKE_API_KEY"

[projects.%q]
trust_level = "trusted"
`, sb.Model, baseURL, sb.Workspace)
	return writeFile(filepath.Join(codexHome, "config.toml"), cfg)
}

func (sb *Sandbox) copilot(baseURL string) error {
	sb.Model = "gpt-5.5"
	sb.Env = append(sb.Env, "COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL="+baseURL+"/v1",
		"COPILOT_PROVIDER_API_KEY="+FakeKey, "COPILOT_MODEL="+sb.Model, "COPILOT_AUTO_UPDATE=false")
	return writeJSON(filepath.Join(sb.Home, ".copilot", "config.json"), map[string]any{
		"trusted_folders": []string{sb.Workspace}, "banner": "never",
	})
}

package offline

import (
	"fmt"
	"path/filepath"
	"time"
)

// The agents no test had taught yume-cli (e2e/unnamed_test.go runs each as
// any program, --provider generic, and Cline also as any ACP agent): Cline
// CLI ("cline"), Continue's CLI ("cn"), grok-cli of @vibe-kit ("grok") and
// nanocoder. Each talks only to the fake model's OpenAI Chat Completions at
// baseURL+"/v1", with every update check, notice and telemetry switch the
// scouts found turned off and no first-run screen left. None of them is set
// to run commands unasked; how each is made to ask is said at each.
//
// Their TUIs are Ink apps (Cline's is its own): with CI set they draw
// nothing live, no input box and no dialog, until they exit. Setup's Env
// has CI=1, TERM=dumb and NO_COLOR=1, as for every CLI; a run in a
// terminal must drop them (e2e's interactiveEnv and yume-sandbox's child
// mode do).

// Unnamed lists the agents Setup knows that yume-cli has no profile for.
// They are not in Providers, which the tests start by name (--provider P).
var Unnamed = []string{"cline", "cn", "grok", "nanocoder"}

// ContinueConfig is where Setup("cn") writes Continue's config, under the
// home. cn takes it from --config, as a user names the config they wrote
// (e2e/unnamed_test.go runs `cn --config HOME/.continue/config.yaml`); a
// config given so also skips its first-run question for an Anthropic key.
const ContinueConfig = ".continue/config.yaml"

// NanocoderPreferences is nanocoder's preferences file under the home,
// whose trustedDirectories hold the workspace: without it, nanocoder's
// first screen asks "Do you trust the files in this folder?".
const NanocoderPreferences = ".config/nanocoder/nanocoder-preferences.json"

// cline: Cline CLI 3.0.65 (the Bun-built program of @cline/cli-<os>-<arch>).
// Its provider is written as `cline auth -p openai-compatible -k KEY -m m
// -b URL` writes it (running that takes seconds and a hub daemon). It
// approves every tool by default: it asks only with --auto-approve false.
// Over ACP (cline --acp) it also needs CLINE_PROVIDER=openai-compatible and
// CLINE_API_KEY in its environment, or session/new fails "Authentication
// required"; the test adds them, as a user starting it so would.
func (sb *Sandbox) cline(baseURL string) error {
	sb.Model = agentModel
	sb.Env = append(sb.Env,
		// No `npm update -g cline` spawned at exit when the registry has a newer release.
		"CLINE_NO_AUTO_UPDATE=1",
		// No "Try ClinePass" (Enter opens a browser) or "Introducing Cline Desktop" popup.
		"CLINE_DISABLE_CLINE_PASS_NOTICE=1",
		// Its PostHog client has no switch of its own that the scout found;
		// the bundled SDK code honours these. Offline it fails silently.
		"DO_NOT_TRACK=1", "DISABLE_TELEMETRY=1")
	settings := filepath.Join(sb.Home, ".cline", "data", "settings")
	if err := writeJSON(filepath.Join(settings, "providers.json"), map[string]any{
		"version": 1, "lastUsedProvider": "openai-compatible", "modes": map[string]any{},
		"providers": map[string]any{"openai-compatible": map[string]any{
			"settings": map[string]any{"provider": "openai-compatible", "apiKey": FakeKey, "model": agentModel,
				"baseUrl": baseURL + "/v1"},
			"updatedAt": time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), "tokenSource": "manual",
		}},
	}); err != nil {
		return err
	}
	// Both notices seen already, as a home that has run it twice.
	return writeJSON(filepath.Join(settings, "cli-notices.json"), map[string]any{
		"shown": map[string]any{"cline-cli-cline-pass-intro": true, "cline-cli-desktop-launch": true},
	})
}

// cn: Continue's CLI 1.5.47. The model is an OpenAI provider at the fake
// (a model name it knows as capable, else its intro warns it is "not
// recommended"). Its TUI asks before Bash by default (default policy
// Bash: ask); --auto, --readonly and -p would run it unasked.
func (sb *Sandbox) cn(baseURL string) error {
	sb.Model = "gpt-fake"
	sb.Env = append(sb.Env, "CONTINUE_METRICS_ENABLED=0", "CONTINUE_CLI_ENABLE_TELEMETRY=0",
		// Its Bash tool runs $SHELL -l -c COMMAND.
		"SHELL=/bin/bash")
	cfg := fmt.Sprintf(`name: offline
version: 0.0.1
schema: v1
models:
  - name: %s
    provider: openai
    model: %s
    apiBase: %s/v1
    apiKey: %s
    roles:
      - chat
      - edit
      - apply
`, sb.Model, sb.Model, baseURL, FakeKey)
	if err := writeFile(filepath.Join(sb.Home, ContinueConfig), cfg); err != nil {
		return err
	}
	// No `npm i -g @continuedev/cli` and detached restart when
	// api.continue.dev names a newer release (its version ping at start
	// has no switch: offline it fails).
	return writeJSON(filepath.Join(sb.Home, ".continue", "index", "globalContext.json"), map[string]any{"autoUpdateCli": false})
}

// grok: grok-cli 0.0.34 (@vibe-kit/grok-cli), configured by its own
// variables only (-k and -u would be saved into ~/.grok/user-settings.json).
// It has no update check, telemetry or first-run screen. Its TUI asks
// before every bash command by default; -p runs everything unasked.
func (sb *Sandbox) grok(baseURL string) error {
	sb.Model = agentModel
	sb.Env = append(sb.Env, "GROK_BASE_URL="+baseURL+"/v1", "GROK_API_KEY="+FakeKey, "GROK_MODEL="+agentModel)
	return nil
}

// nanocoder: nanocoder 1.25.2, one OpenAI-compatible provider at the fake
// and the workspace trusted (its first screen asks otherwise; with no
// provider, a Provider Wizard follows). It checks npm for a newer release
// at every start, with no switch: NODE_USE_ENV_PROXY makes its Node (22)
// fetch through the dead proxy, so that fails at once even where the
// internet is reachable (without it Node's fetch ignores the proxy), and
// --disable-warning keeps Node's "EnvHttpProxyAgent is experimental" off
// the top of its screen. No telemetry, no self-install. It asks before
// every execute_bash by default ("normal mode"; nothing in alwaysAllow).
func (sb *Sandbox) nanocoder(baseURL string) error {
	sb.Model = agentModel
	sb.Env = append(sb.Env, "NODE_USE_ENV_PROXY=1", "NODE_OPTIONS=--disable-warning=UNDICI-EHPA")
	dir := filepath.Join(sb.Home, ".config", "nanocoder")
	if err := writeJSON(filepath.Join(dir, "agents.config.json"), map[string]any{
		"nanocoder": map[string]any{"providers": []any{map[string]any{
			"name": "fake", "baseUrl": baseURL + "/v1", "apiKey": FakeKey, "models": []string{agentModel},
		}}},
	}); err != nil {
		return err
	}
	return writeJSON(filepath.Join(sb.Home, NanocoderPreferences), map[string]any{"trustedDirectories": []string{sb.Workspace}})
}

package offline

import "path/filepath"

// The ACP agents (opencode, Kilo Code CLI, Qwen Code) run offline against
// the fake model's OpenAI Chat Completions dialect. None of these configs
// sets a permission: yume-cli must make each agent ask (their defaults run
// shell commands unasked), and the live tests check that it does.

// agentModel is the model each sandbox names: "fake/m" for opencode and
// Kilo (provider/model), "m" for Qwen Code.
const agentModel = "m"

// openCodeConfig is opencode's and Kilo's config: one OpenAI-compatible
// provider "fake" (its SDK is bundled in the program, nothing is fetched).
func openCodeConfig(baseURL string) map[string]any {
	return map[string]any{
		"$schema":    "https://opencode.ai/config.json",
		"autoupdate": false,
		"share":      "disabled",
		"provider": map[string]any{"fake": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "Fake",
			"options": map[string]any{"baseURL": baseURL + "/v1", "apiKey": FakeKey},
			"models":  map[string]any{agentModel: map[string]any{"name": agentModel}},
		}},
		"model": "fake/" + agentModel,
	}
}

// openCodeQuiet are an opencode-family agent's switches (prefix OPENCODE
// or KILO) for no update check, model list fetch, plugin install or share.
func openCodeQuiet(prefix string) []string {
	var env []string
	for _, s := range []string{"DISABLE_AUTOUPDATE", "DISABLE_MODELS_FETCH", "DISABLE_DEFAULT_PLUGINS", "DISABLE_SHARE", "DISABLE_LSP_DOWNLOAD"} {
		env = append(env, prefix+"_"+s+"=true")
	}
	return env
}

func (sb *Sandbox) opencode(baseURL string) error {
	sb.Model = "fake/" + agentModel
	sb.Env = append(sb.Env, openCodeQuiet("OPENCODE")...)
	return writeJSON(filepath.Join(sb.Home, ".config", "opencode", "opencode.json"), openCodeConfig(baseURL))
}

func (sb *Sandbox) kilo(baseURL string) error {
	sb.Model = "fake/" + agentModel
	sb.Env = append(sb.Env, openCodeQuiet("KILO")...)
	sb.Env = append(sb.Env, "KILO_TELEMETRY_LEVEL=off", "KILO_DISABLE_SESSION_INGEST=true")
	return writeJSON(filepath.Join(sb.Home, ".config", "kilo", "kilo.json"), openCodeConfig(baseURL))
}

// qwen: the OpenAI auth type named in settings (so ACP needs no
// authenticate), and its side requests that offer tools to the model
// (memory extraction, follow-up suggestions) turned off: the fake model
// would answer them from the script.
func (sb *Sandbox) qwen(baseURL string) error {
	sb.Model = agentModel
	sb.Env = append(sb.Env, "OPENAI_BASE_URL="+baseURL+"/v1", "OPENAI_API_KEY="+FakeKey, "OPENAI_MODEL="+agentModel,
		"QWEN_USAGE_STATISTICS_ENABLED=false", "QWEN_CODE_DISABLE_PRECONNECT=1")
	return writeJSON(filepath.Join(sb.Home, ".qwen", "settings.json"), map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}, "folderTrust": map[string]any{"enabled": false}},
		"model":    map[string]any{"name": agentModel},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"general":  map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
		"memory":   map[string]any{"enableManagedAutoMemory": false, "enableManagedAutoDream": false},
		"ui":       map[string]any{"enableFollowupSuggestions": false},
	})
}

package structured

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
)

// ProviderStatus is what doctor knows about one provider CLI. It never
// holds a secret: credentials are reported by where they were found.
type ProviderStatus struct {
	Name      string `json:"name"`
	Installed bool   `json:"installed"`
	Path      string `json:"path,omitempty"`
	Version   string `json:"version,omitempty"`
	// Modes are the modes this version supports, best first ("acp",
	// "json", then "pty", which every installed CLI has).
	Modes []string `json:"modes"`
	// Credentials is true when an API key, token or login file is present
	// (presence only: nothing is checked over the network).
	Credentials      bool   `json:"credentials"`
	CredentialSource string `json:"credential_source,omitempty"`
	// Problems and Fix say what is wrong and what to run about it.
	Problems []string `json:"problems,omitempty"`
	Fix      []string `json:"fix,omitempty"`
}

// credentialSpec lists where a provider's credentials may be.
type credentialSpec struct {
	env   []string
	files []string // relative to HOME, unless absolute
	// loginKeys are top-level keys of a JSON config file (files[i] ending
	// in .json) whose presence means a logged-in user.
	loginKeys []string
	fix       string
}

var credentialSpecs = map[string]credentialSpec{
	"claude": {
		env:   []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX"},
		files: []string{".claude/.credentials.json", ".claude.json"}, loginKeys: []string{"oauthAccount"},
		fix: "run `claude` once and log in, or set ANTHROPIC_API_KEY",
	},
	"codex": {
		env: []string{"OPENAI_API_KEY", "CODEX_API_KEY"}, files: []string{".codex/auth.json"},
		fix: "run `codex login`, or set OPENAI_API_KEY",
	},
	"copilot": {
		env:   []string{"COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "COPILOT_PROVIDER_API_KEY"},
		files: []string{".copilot/config.json"}, loginKeys: []string{"logged_in_users", "last_logged_in_user"},
		fix: "run `copilot` and /login, or set COPILOT_GITHUB_TOKEN",
	},
	"gemini": {
		env:   []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_GENAI_USE_VERTEXAI"},
		files: []string{".gemini/oauth_creds.json"},
		fix:   "set GEMINI_API_KEY, or run `gemini` once and log in with Google",
	},
}

// Doctor reports, for every known provider, whether it is installed, its
// version and modes, whether credentials appear configured, and what to
// run to fix what is missing. It runs each CLI's --version and reads no
// secret.
func Doctor(ctx context.Context) []ProviderStatus {
	home, _ := os.UserHomeDir()
	return doctor(ctx, os.Getenv, home, exec.LookPath)
}

func doctor(ctx context.Context, getenv func(string) string, home string, lookPath func(string) (string, error)) []ProviderStatus {
	var out []ProviderStatus
	for _, p := range providers {
		st := ProviderStatus{Name: p.name, Modes: []string{}}
		path, err := lookPath(p.bin)
		if err != nil {
			st.Problems = append(st.Problems, p.bin+" is not in PATH")
			st.Fix = append(st.Fix, installHint(p.name))
		} else {
			st.Installed, st.Path = true, path
			v, err := DetectVersion(ctx, path)
			if err != nil {
				st.Problems = append(st.Problems, err.Error())
				st.Fix = append(st.Fix, "reinstall it: "+installHint(p.name))
			}
			st.Version = v
			st.Modes = append(Modes(p.name, v), "pty")
			if len(st.Modes) == 1 {
				st.Problems = append(st.Problems, "this version has no JSON or ACP mode; only the PTY mode works")
				st.Fix = append(st.Fix, "update it: "+installHint(p.name))
			}
		}
		st.CredentialSource = findCredentials(p.name, getenv, home)
		st.Credentials = st.CredentialSource != ""
		if !st.Credentials {
			st.Problems = append(st.Problems, "no credentials found")
			st.Fix = append(st.Fix, credentialSpecs[p.name].fix)
		}
		out = append(out, st)
	}
	return out
}

// findCredentials says where credentials were found ("env GEMINI_API_KEY",
// "~/.codex/auth.json"), or "" when none were.
func findCredentials(name string, getenv func(string) string, home string) string {
	spec := credentialSpecs[name]
	for _, k := range spec.env {
		if getenv(k) != "" {
			return "env " + k
		}
	}
	files := spec.files
	if name == "codex" && getenv("CODEX_HOME") != "" {
		files = append([]string{filepath.Join(getenv("CODEX_HOME"), "auth.json")}, files...)
	}
	for _, f := range files {
		path := f
		if !filepath.IsAbs(f) {
			if home == "" {
				continue
			}
			path = filepath.Join(home, f)
		}
		if hasLogin(path, spec.loginKeys) {
			if filepath.IsAbs(f) {
				return f
			}
			return "~/" + f
		}
	}
	return ""
}

// hasLogin reports whether path exists and, for a .json config with
// loginKeys, has one of them set. Only key names are looked at.
func hasLogin(path string, loginKeys []string) bool {
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 {
		return false
	}
	if filepath.Ext(path) != ".json" || len(loginKeys) == 0 || filepath.Base(path) == ".credentials.json" {
		return true
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) != nil {
		return false
	}
	for _, k := range loginKeys {
		if v, ok := top[k]; ok && string(v) != "null" && string(v) != "[]" && string(v) != `""` {
			return true
		}
	}
	return false
}

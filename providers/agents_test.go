package providers

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestAgentCommands: the ACP agents' command lines for each permission
// mode — what makes the agent ask (or not), the model in its own syntax,
// --api-base — and no prompt or model that looks like an option becomes
// one.
func TestAgentCommands(t *testing.T) {
	cases := []struct {
		provider string
		req      Request
		args     []string
		env      []string // exact entries
	}{
		{"opencode", Request{Prompt: "hi"}, []string{"acp", "--print-logs", "--log-level", "WARN"}, []string{`OPENCODE_PERMISSION={"bash":"ask","edit":"ask"}`}},
		{"opencode", Request{Prompt: "hi", Auto: true}, []string{"acp", "--print-logs", "--log-level", "WARN"}, []string{`OPENCODE_PERMISSION={"bash":"allow","edit":"allow"}`}},
		{"opencode", Request{Prompt: "hi", Model: "anthropic/claude-sonnet-4-5"}, []string{"acp", "--print-logs", "--log-level", "WARN"},
			[]string{`OPENCODE_PERMISSION={"bash":"ask","edit":"ask"}`, `OPENCODE_CONFIG_CONTENT={"model":"anthropic/claude-sonnet-4-5"}`}},
		{"opencode", Request{Prompt: "hi", Model: "fake/m", APIBase: "http://127.0.0.1:1/v1"}, []string{"acp", "--print-logs", "--log-level", "WARN"},
			[]string{`OPENCODE_PERMISSION={"bash":"ask","edit":"ask"}`, `OPENCODE_CONFIG_CONTENT={"model":"fake/m","provider":{"fake":{"options":{"baseURL":"http://127.0.0.1:1/v1"}}}}`}},
		{"kilo", Request{Prompt: "--yolo", Model: "-m/x"}, []string{"acp", "--print-logs", "--log-level", "WARN"},
			[]string{`KILO_PERMISSION={"bash":"ask","edit":"ask"}`, `KILO_CONFIG_CONTENT={"model":"-m/x"}`}},
		{"kilo", Request{Prompt: "hi", Auto: true}, []string{"acp", "--print-logs", "--log-level", "WARN"}, []string{`KILO_PERMISSION={"bash":"allow","edit":"allow"}`}},
		{"qwen", Request{Prompt: "hi"}, []string{"--acp", "--approval-mode", "default"}, nil},
		{"qwen", Request{Prompt: "hi", Auto: true, Model: "qwen3-coder"}, []string{"--acp", "--approval-mode", "yolo", "--model", "qwen3-coder"}, nil},
		{"qwen", Request{Prompt: "--approval-mode=yolo", Model: "--yolo"}, []string{"--acp", "--approval-mode", "default", "--model=--yolo"}, nil},
		{"acp", Request{Prompt: "-y", Model: "m", Auto: true}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.provider, func(t *testing.T) {
			p, ok := Lookup(c.provider)
			if !ok {
				t.Fatalf("%s is not registered", c.provider)
			}
			m, ok := p.ModeFor(ModeACP, "")
			if !ok || m.Format != "acp" {
				t.Fatalf("%s has no ACP mode", c.provider)
			}
			inv := m.Command(c.req)
			if !slices.Equal(inv.Args, c.args) || !slices.Equal(inv.Env, c.env) || !inv.KeepStdin {
				t.Errorf("args %q env %q keepStdin %v; want %q %q true", inv.Args, inv.Env, inv.KeepStdin, c.args, c.env)
			}
			for _, kv := range inv.Env {
				if _, v, _ := strings.Cut(kv, "="); !json.Valid([]byte(v)) {
					t.Errorf("%s is not JSON", kv)
				}
			}
			if slices.Contains(inv.Args, c.req.Prompt) {
				t.Errorf("the prompt %q is on the command line %q: it goes over ACP", c.req.Prompt, inv.Args)
			}
		})
	}
}

// TestAgentDescriptors: what doctor and the flags read from each agent's
// descriptor.
func TestAgentDescriptors(t *testing.T) {
	cases := []struct {
		provider   string
		auto       string // the mode's AutoName
		apiBaseEnv string
		modelErr   map[string]bool // APIBaseCheck(model) fails?
	}{
		{"opencode", `OPENCODE_PERMISSION {"bash":"allow","edit":"allow"}`, "", map[string]bool{"fake/m": false, "m": true, "": true, "/m": true}},
		{"kilo", `KILO_PERMISSION {"bash":"allow","edit":"allow"}`, "", map[string]bool{"openrouter/a/b": false, "b": true}},
		{"qwen", "qwen --approval-mode yolo", "OPENAI_BASE_URL", nil},
	}
	for _, c := range cases {
		t.Run(c.provider, func(t *testing.T) {
			p, _ := Lookup(c.provider)
			m, _ := p.ModeFor(ModeACP, "")
			if m.AutoName != c.auto || p.BaseURLEnv != c.apiBaseEnv || !m.Resumes {
				t.Errorf("AutoName %q BaseURLEnv %q Resumes %v", m.AutoName, p.BaseURLEnv, m.Resumes)
			}
			if p.Verified[0] == "" || !p.VerifiedOn(p.Verified[1]) || p.VerifiedOn("0.0.1") {
				t.Errorf("verified range %v", p.Verified)
			}
			if p.Credentials.Fix == "" || !strings.Contains(p.InstallHint(), "npm") {
				t.Errorf("credentials fix %q, install %q", p.Credentials.Fix, p.InstallHint())
			}
			for model, wantErr := range c.modelErr {
				if err := p.APIBaseCheck(model); (err != nil) != wantErr {
					t.Errorf("APIBaseCheck(%q) = %v, want error %v", model, err, wantErr)
				}
			}
		})
	}
}

// TestAgentRunCommands: `opencode run --format json` and Kilo's: the
// prompt on stdin, never on the command line; the permission, model and
// endpoint in the environment; a session continued by --session.
func TestAgentRunCommands(t *testing.T) {
	cases := []struct {
		provider string
		req      Request
		args     []string
		env      []string
	}{
		{"opencode", Request{Prompt: "--yolo", Auto: true}, []string{"run", "--format", "json", "--print-logs", "--log-level", "WARN"}, []string{`OPENCODE_PERMISSION={"bash":"allow","edit":"allow"}`}},
		{"opencode", Request{Prompt: "hi", Resume: "ses_1", Model: "fake/m"}, []string{"run", "--format", "json", "--print-logs", "--log-level", "WARN", "--session", "ses_1"},
			[]string{`OPENCODE_PERMISSION={"bash":"ask","edit":"ask"}`, `OPENCODE_CONFIG_CONTENT={"model":"fake/m"}`}},
		{"kilo", Request{Prompt: "hi", Resume: "-x"}, []string{"run", "--format", "json", "--print-logs", "--log-level", "WARN", "--session=-x"}, []string{`KILO_PERMISSION={"bash":"ask","edit":"ask"}`}},
	}
	for _, c := range cases {
		p, _ := Lookup(c.provider)
		m, ok := p.ModeFor(ModeJSON, "")
		if !ok || !m.CannotAsk || m.Format != "opencode-json" {
			t.Fatalf("%s: JSON mode %+v", c.provider, m)
		}
		inv := m.Command(c.req)
		if !slices.Equal(inv.Args, c.args) || !slices.Equal(inv.Env, c.env) || inv.Stdin != c.req.Prompt || inv.KeepStdin {
			t.Errorf("%s %+v: args %q env %q stdin %q; want %q %q and the prompt on stdin", c.provider, c.req, inv.Args, inv.Env, inv.Stdin, c.args, c.env)
		}
	}
}

// TestQwenRunCommand: headless qwen with the approval mode always named and
// the prompt on stdin.
func TestQwenRunCommand(t *testing.T) {
	cases := []struct {
		req  Request
		args []string
	}{
		{Request{Prompt: "--yolo"}, []string{"--output-format", "stream-json", "--approval-mode", "default"}},
		{Request{Prompt: "hi", Auto: true, Model: "-m", Resume: "q-1"}, []string{"--output-format", "stream-json", "--approval-mode", "yolo", "--model=-m", "--resume", "q-1"}},
	}
	p, _ := Lookup("qwen")
	m, ok := p.ModeFor(ModeJSON, "")
	if !ok || !m.CannotAsk || m.Format != "qwen-stream-json" {
		t.Fatalf("qwen JSON mode %+v", m)
	}
	for _, c := range cases {
		if inv := m.Command(c.req); !slices.Equal(inv.Args, c.args) || inv.Stdin != c.req.Prompt {
			t.Errorf("%+v: args %q stdin %q; want %q and the prompt on stdin", c.req, inv.Args, inv.Stdin, c.args)
		}
	}
}

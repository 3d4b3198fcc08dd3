package run

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
)

// TestBackgroundAgentGuard: Yume's background agent (auto mode, nobody to
// answer, a role) runs under the guard: the CLI in its asking mode, told
// its role.
func TestBackgroundAgentGuard(t *testing.T) {
	cfg := &Config{IO: &IOStreams{}, Provider: prov(t, "claude"), Permission: permission.Auto, AutoGuard: "on", AgentType: "implementer"}
	if !cfg.guardsAuto() || cfg.cliMode() != permission.Default {
		t.Errorf("guarded auto %v, CLI mode %s; want true, default", cfg.guardsAuto(), cfg.cliMode())
	}
	if text := cfg.agentInstruction(); !strings.HasPrefix(text, "You are Yume's implementer agent, running in the background") {
		t.Errorf("instruction %q", text)
	}
}

// containsSeq reports whether args hold a, followed by b.
func containsSeq(args []string, a, b string) bool {
	i := slices.Index(args, a)
	return i >= 0 && i+1 < len(args) && args[i+1] == b
}

func readTestHelp(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "providers", "testdata", name+".help"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Auto mode under the guard starts each structured mode that can ask in
// its asking mode (nothing runs around yume-cli's policy), the role first
// on its command line; a mode that cannot ask keeps its allow-all and
// says so; with the guard off for auto mode, the CLI's allow-all runs.
func TestDriveAutoGuard(t *testing.T) {
	w := emit.NewWriter(&bytes.Buffer{}, emit.Config{})
	claudeHelp, qwenHelp, codexHelp := readTestHelp(t, "claude-2.1.332"), readTestHelp(t, "qwen-0.24.4"), readTestHelp(t, "codex-0.171.0")
	cmd := func(o *Config, name, help string) []string {
		o.drive(w)
		m, _ := o.provider().ModeFor(name, "")
		return m.Command(providers.Request{Prompt: "hi", Auto: o.Permission == permission.Auto, Help: help}).Args
	}
	guarded := &Config{IO: &IOStreams{ErrOut: &bytes.Buffer{}}, Provider: prov(t, "claude"), Permission: permission.Auto, AutoGuard: "on", AgentType: "guardian"}
	args := cmd(guarded, "json", claudeHelp)
	if args[0] != "--append-system-prompt" || !strings.Contains(args[1], "Yume's guardian agent") || !containsSeq(args, "--permission-mode", "manual") {
		t.Errorf("claude, guarded auto: %q", args)
	}
	off := &Config{IO: &IOStreams{ErrOut: &bytes.Buffer{}}, Provider: prov(t, "claude"), Permission: permission.Auto, AutoGuard: "off"}
	if args := cmd(off, "json", claudeHelp); !containsSeq(args, "--permission-mode", "auto") || args[0] == "--append-system-prompt" {
		t.Errorf("claude, auto with the guard off: %q", args)
	}
	// Someone can answer (a pipe on stdin): on keeps the CLI's allow-all,
	// always does not.
	channel := &Config{IO: &IOStreams{In: strings.NewReader(""), ErrOut: &bytes.Buffer{}}, Provider: prov(t, "claude"), Permission: permission.Auto, AutoGuard: "on"}
	if args := cmd(channel, "json", claudeHelp); !containsSeq(args, "--permission-mode", "auto") || channel.cliMode() != permission.Auto {
		t.Errorf("claude, auto with a channel: %q", args)
	}
	channel.AutoGuard = "always"
	if args := cmd(channel, "json", claudeHelp); !containsSeq(args, "--permission-mode", "manual") || channel.cliMode() != permission.Default {
		t.Errorf("claude, auto with a channel, the guard always: %q", args)
	}
	qwen := &Config{IO: &IOStreams{ErrOut: &bytes.Buffer{}}, Provider: prov(t, "qwen"), Permission: permission.Auto, AutoGuard: "on"}
	if args := cmd(qwen, "acp", qwenHelp); !containsSeq(args, "--approval-mode", "default") {
		t.Errorf("qwen acp, guarded auto: %q", args)
	}
	if m, _ := qwen.provider().ModeFor("acp", ""); m.AutoName != "" {
		t.Errorf("qwen acp, guarded auto, names an allow-all: %q", m.AutoName)
	}
	var out bytes.Buffer
	w = emit.NewWriter(&out, emit.Config{})
	codex := &Config{IO: &IOStreams{ErrOut: &bytes.Buffer{}}, Provider: prov(t, "codex"), Permission: permission.Auto, AutoGuard: "on"}
	if args := cmd(codex, "json", codexHelp); !slices.Contains(args, "--dangerously-bypass-approvals-and-sandbox") {
		t.Errorf("codex exec cannot ask: it keeps its allow-all: %q", args)
	}
	_ = w.Init("auto", nil)
	if !strings.Contains(out.String(), `"subtype":"warning","message":"yume-cli: OpenAI Codex CLI's json mode cannot ask before a call, so auto mode runs it with its own allow-all: the guard flags what it sees but cannot stop it; --mode pty asks, and keeps the guard's list"`) {
		t.Errorf("no warning: %s", out.String())
	}
	// Codex's --mode auto picks its TUI, which asks, in guarded auto mode.
	codexP, _ := providers.Lookup("codex")
	if mode, why := modeOf(codexP, "0.171.0", codex); mode != "pty" || !strings.Contains(why, "auto mode keeps the guard's list") {
		t.Errorf("codex, guarded auto: %s (%s)", mode, why)
	}
}

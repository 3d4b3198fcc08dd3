package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
	"github.com/yume-cli/yume-cli/permission"
	descriptors "github.com/yume-cli/yume-cli/providers"
)

// TestLiveGenericProfile: the generic profile, which knows none of the AI
// TUIs, drives each of them started with a prompt on its command line:
// the command question reaches the GUI read from the dialog's shape, an
// approval runs the command and a denial does not, and the turn ends (an
// input box on a still screen) with no provider profile.
func TestLiveGenericProfile(t *testing.T) {
	live(t)
	for pi, provider := range providers {
		for ai, approve := range []bool{true, false} {
			t.Run(provider+map[bool]string{true: "/approve", false: "/deny"}[approve], func(t *testing.T) {
				cell(t, pi, len(providers), ai, 2)
				bin := cliPath(t, provider)
				h := newHome(t, provider)
				if provider == "codex" {
					// Its model-migration notice seen already, as after a first
					// run: a screen the generic layer rightly stops at.
					f, err := os.OpenFile(filepath.Join(h.sb.Home, ".codex", "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						t.Fatal(err)
					}
					_, _ = f.WriteString("\n[notice.model_migrations]\n\"gpt-5.5\" = \"gpt-6-sol\"\n")
					_ = f.Close()
				}
				// Approved, the TUI is started with its prompt on its command
				// line; denied, without it: the generic profile types --prompt
				// into its input box, read by its shape, as a person would.
				onLine := "make the file"
				if !approve {
					onLine = ""
				}
				argv := launchArgv(t, provider, bin, h.sb, onLine)
				flags := append([]string{"--provider", "generic", "--mode", "pty", "--prompt", "make the file", "--"}, argv...)
				r := h.run(t, oneCommandScript(provider), gui{answer: func(int) bool { return approve }}, flags...)
				if len(r.uses) != 1 || r.uses[0].Input["command"] != oneCommand {
					t.Fatalf("tool_uses = %+v, want one for %q\nstderr:\n%s", r.uses, oneCommand, r.stderr)
				}
				for k, v := range r.uses[0].Input {
					if s, ok := v.(string); ok && strings.Contains(s, bin) {
						t.Errorf("input %s carries the program's command line: %q", k, s)
					}
				}
				_, err := os.Stat(filepath.Join(r.sb.Workspace, "made.txt"))
				if ran := err == nil; ran != approve {
					t.Errorf("made.txt exists = %v, want %v", ran, approve)
				}
				if !promptReached(h, "make the file") {
					t.Errorf("the prompt never reached the model (on its command line: %v)", onLine != "")
				}
				if out := r.results[r.uses[0].ID]; approve {
					// What the command printed, read where the TUI drew it:
					// never its input box, status line or the model's answer.
					checkGenericOutput(t, out.Content)
				}
				res := r.final()
				if res == nil {
					t.Fatalf("no result; stderr:\n%s", r.stderr)
				}
				if res["is_error"] == true {
					t.Errorf("result is an error, want the turn to end at the input box: %s", res.str("result"))
				}
				if r.took > 90*time.Second {
					t.Errorf("took %v", r.took)
				}
				t.Logf("%s: result %v in %v", provider, res.str("result"), r.took)
			})
		}
	}
}

// launchArgv is how yume-cli's own descriptor would start provider's TUI
// for one turn that asks before it runs commands: its env, program and
// arguments, as one command line.
func launchArgv(t *testing.T, provider, bin string, sb *offline.Sandbox, prompt string) []string {
	t.Helper()
	p, ok := descriptors.Lookup(provider)
	if !ok || p.TUI == nil {
		t.Fatalf("no TUI descriptor for %s", provider)
	}
	env := func(k string) string {
		for _, kv := range sb.Env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return os.Getenv(k)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	help := exec.CommandContext(ctx, bin, "--help")
	help.Env = sb.Env
	// An npm launcher runs the CLI as its child, which keeps the output
	// open after the launcher is killed: Copilot CLI 1.0.87's --help once
	// hung there, and the live suite with it, until its 1 h timeout.
	help.WaitDelay = 2 * time.Second
	out, _ := help.CombinedOutput()
	l := descriptors.Launch{Prompt: prompt, Model: sb.Model, Mode: permission.Default, Cwd: sb.Workspace,
		Getenv: env, Help: string(out), Started: time.Now()}
	if p.TUI.NewSession != nil {
		l.Session = p.TUI.NewSession()
	}
	args, err := p.TUI.Args(l)
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{"env"}
	if p.TUI.Env != nil {
		argv = append(argv, p.TUI.Env(l)...)
	}
	return append(append(argv, bin), args...)
}

// checkGenericOutput holds an approved oneCommand's tool_result, read by
// the generic profile, to what the command printed, as much of it as the
// TUI showed (it may fold it: the tail and a note), or to the one line
// that says the TUI never showed it (Claude Code and Copilot CLI collapse
// a finished command): never the TUI's input box, status line or the
// model's answer after it.
func checkGenericOutput(t *testing.T, out string) {
	t.Helper()
	if strings.HasPrefix(out, "(yume-cli: the program did not show this command's output") {
		return
	}
	seen := 0
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if _, err := strconv.Atoi(l); err == nil || l == "wrote made.txt" {
			seen++
			continue
		}
		if !strings.HasPrefix(l, "[yume-cli:") {
			t.Errorf("tool_result line %q is not the command's output (%q)", l, out)
		}
	}
	if seen == 0 {
		t.Errorf("tool_result = %q: no line of the command's output", out)
	}
}

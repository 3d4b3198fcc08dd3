package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// providers are the CLIs the live suite drives.
var providers = []string{"claude", "codex", "copilot", "gemini"}

// shellCall is the model's request to run command, in provider's own tool
// vocabulary. Codex asks only for a run outside its sandbox.
func shellCall(provider, command, why string) fakemodel.ToolCall {
	switch provider {
	case "claude":
		return fakemodel.ToolCall{Name: "Bash", Args: map[string]string{"command": command, "description": why}}
	case "gemini", "qwen":
		return fakemodel.ToolCall{Name: "run_shell_command", Args: map[string]string{"command": command, "description": why}}
	case "codex":
		return fakemodel.ToolCall{Name: "exec_command", Args: map[string]string{"cmd": command,
			"sandbox_permissions": "require_escalated", "justification": why}}
	}
	return fakemodel.ToolCall{Name: "bash", Args: map[string]string{"command": command, "description": why}}
}

// scriptFor is the fake model's script for a scenario: one reply per call,
// then the final answer.
func scriptFor(provider string, sc genScenario) fakemodel.Script {
	var s fakemodel.Script
	for i, c := range sc.Calls {
		s.Replies = append(s.Replies, fakemodel.Reply{Text: fmt.Sprintf("Step %d.", i+1),
			ToolCalls: []fakemodel.ToolCall{shellCall(provider, c.Command, fmt.Sprintf("step %d", i+1))}})
	}
	s.Replies = append(s.Replies, fakemodel.Reply{Text: sc.Final})
	return s
}

// scenarioCount is how many generated scenarios each CLI runs (E2E_N).
func scenarioCount() int {
	if n, err := strconv.Atoi(os.Getenv("E2E_N")); err == nil && n > 0 {
		return n
	}
	return 3
}

// TestLiveGenerated drives each CLI through generated turns in its TUI,
// asserting the exact command, all of the output, every denial, one
// result, the time bound and that nothing is left running: a fresh seed
// each run, then the scenarios earlier seeds failed on.
func TestLiveGenerated(t *testing.T) {
	live(t)
	sd := seed(t)
	t.Logf("E2E_SEED=%d", sd)
	for pi, provider := range providers {
		for _, sc := range genScenarios(sd+uint64(pi), scenarioCount()) {
			t.Run(provider+"/"+sc.Name, func(t *testing.T) { runGenerated(t, provider, sc) })
		}
	}
	for _, reg := range regressions {
		pi := slices.Index(providers, reg.provider)
		sc := genScenarios(reg.seed+uint64(pi), reg.index+1)[reg.index]
		t.Run(fmt.Sprintf("regression/%s/%d/%s", reg.provider, reg.seed, sc.Name), func(t *testing.T) {
			t.Log(reg.found)
			runGenerated(t, reg.provider, sc)
		})
	}
}

// regressions are generated scenarios that found bugs, kept as fixed
// cases: E2E_SEED=seed runs them with the rest of that seed's scenarios.
var regressions = []struct {
	seed     uint64
	provider string
	index    int
	found    string
}{
	{1, "claude", 1, "a second question drawn on the rows of the first was taken for it (claims by answer row)"},
	{7, "codex", 0, "a long command wrapped by two spaces in Codex 0.169's dialog: no rule fired"},
	{7, "copilot", 0, "Copilot's note <shellId: N completed with exit code 0> ended up in the output"},
	{7, "gemini", 2, "Gemini's (empty) for no output"},
	{1795534726129764132, "claude", 2, "Claude dropped an Enter typed while it drew a warning under the command"},
	{1795534726129764132, "claude", 3, "Claude's (Bash completed with no output)"},
	{1795534726129764132, "copilot", 1, "Copilot asked for path access before the command, highlight on option 2, then asked for the command"},
	{1795572833961114890, "gemini", 0, "Gemini refused a quoted heredoc holding a backtick (its command-substitution guard): its words are the result"},
	{1795577451264679408, "gemini", 2, "a heredoc's blank line, a blank row in Gemini's command box, was dropped from the tool_use"},
}

func runGenerated(t *testing.T, provider string, sc genScenario) {
	cliPath(t, provider)
	r := runYume(t, provider, scriptFor(provider, sc), gui{answer: func(n int) bool {
		return n <= len(sc.Calls) && sc.Calls[n-1].Approve
	}, interrupt: sc.Interrupt}, "--mode", "pty", "--prompt", "run the steps")
	checkGenerated(t, r, sc)
}

// checkGenerated holds a run to its scenario.
func checkGenerated(t *testing.T, r *run, sc genScenario) {
	t.Helper()
	if r.took > 90*time.Second {
		t.Errorf("the turn took %v", r.took)
	}
	res := r.final()
	if res == nil {
		t.Fatal("no result")
	}
	if sc.Interrupt {
		if res["is_error"] != true || !hasType(r, "interrupt") {
			t.Errorf("interrupted turn: result %v, want an interrupt and an error result", res)
		}
		for _, c := range sc.Calls {
			if ran(r, c) {
				t.Errorf("interrupted at the first question, yet %s ran", c.Marker)
			}
		}
		return
	}
	for i, c := range sc.Calls {
		if i >= len(r.uses) {
			t.Fatalf("call %d: no tool_use (got %d): want %q", i+1, len(r.uses), c.Command)
		}
		u := r.uses[i]
		if got := fmt.Sprint(u.Input["command"]); got != c.Command {
			t.Errorf("call %d: tool_use command\n got %q\nwant %q", i+1, got, c.Command)
		}
		out, ok := r.results[u.ID]
		if !ok {
			t.Errorf("call %d: no tool_result for %s", i+1, u.ID)
			continue
		}
		if !c.Approve {
			if !out.IsError || ran(r, c) {
				t.Errorf("call %d denied: result %+v, ran %v; want an error result and no run", i+1, out, ran(r, c))
			}
			if d, _ := res["permission_denials"].([]any); len(d) != 1 {
				t.Errorf("permission_denials = %v, want the denial", res["permission_denials"])
			}
			return // the CLI stops its turn at a denial
		}
		if refusedByCLI(out.Content) {
			// The CLI's own policy refused the approved command (Gemini
			// blocks any text that looks like command substitution, even
			// quoted): its words are the result, and nothing ran.
			t.Logf("call %d: the CLI refused it: %q", i+1, tail(out.Content, 200))
			if ran(r, c) {
				t.Errorf("call %d: the CLI said it refused, yet %s ran", i+1, c.Marker)
			}
			continue
		}
		if !ran(r, c) {
			t.Errorf("call %d approved but %s is not there", i+1, c.Marker)
		}
		got, want := normalize(out.Content), normalize(c.Output)
		if want != "" && isNoOutput(got) && !toldModel(r, c.Command, want) {
			// The CLI itself got nothing: its model was never told the
			// output (Gemini's shell, node-pty, drops a fast command's
			// output when the exit is seen before the data under load).
			// What the program got is the result.
			t.Logf("call %d: the CLI lost the output itself: its model was not told it either; the result %q says so", i+1, got)
			continue
		}
		if got != want && !(want == "" && isNoOutput(got)) {
			t.Errorf("call %d: tool_result\n got %q\nwant %q", i+1, tail(got, 300), tail(want, 300))
		}
	}
	if len(r.uses) != len(sc.Calls) {
		t.Errorf("%d tool_uses, want %d", len(r.uses), len(sc.Calls))
	}
	if res["is_error"] == true {
		t.Errorf("error result: %v", res)
	}
	if n := count(r.texts(), sc.Final); n != 1 {
		t.Errorf("the final answer %q was said %d times, want once (texts %q)", sc.Final, n, r.texts())
	}
}

// toldModel reports whether the CLI told its model output, the output of
// command: in any string of any request it sent, other than where it
// repeats the command (which holds the output's text as a literal).
func toldModel(r *run, command, output string) bool {
	for _, req := range r.srv.Requests() {
		var body any
		if json.Unmarshal(req.Body, &body) != nil {
			if strings.Contains(strings.ReplaceAll(string(req.Body), command, ""), output) {
				return true
			}
			continue
		}
		if anyString(body, func(s string) bool { return strings.Contains(strings.ReplaceAll(s, command, ""), output) }) {
			return true
		}
	}
	return false
}

// anyString reports whether f holds for any string in a decoded JSON value.
func anyString(v any, f func(string) bool) bool {
	switch v := v.(type) {
	case string:
		return f(v)
	case []any:
		for _, e := range v {
			if anyString(e, f) {
				return true
			}
		}
	case map[string]any:
		for _, e := range v {
			if anyString(e, f) {
				return true
			}
		}
	}
	return false
}

// refusedByCLI recognises a CLI's own refusal to run a command it was
// allowed to: Gemini CLI's command-substitution guard.
func refusedByCLI(result string) bool {
	return strings.HasPrefix(result, "Command injection detected")
}

func ran(r *run, c genCall) bool {
	_, err := os.Stat(filepath.Join(r.sb.Workspace, c.Marker))
	return err == nil
}

func hasType(r *run, typ string) bool {
	for _, e := range r.events {
		if e.str("type") == typ {
			return true
		}
	}
	return false
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// normalize trims what the CLIs differ in around a command's output: the
// blank lines before and after it.
func normalize(s string) string { return strings.Trim(s, "\n \t") }

func isNoOutput(s string) bool { return s == "" || s == "(no output)" }

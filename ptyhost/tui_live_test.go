//go:build unix

package ptyhost_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/ptyhost/internal/leakcheck"
)

// tuiCommand is what the fake model asks each CLI to run: it writes a file
// (proof that an approval ran it) and prints a line the tool_result must
// carry (proof that the output was read from the TUI's rendering).
const tuiCommand = `printf 'alpha\nbeta\n' > made.txt && echo wrote made.txt`

// tuiFinal is the model's answer after the command: two paragraphs, as
// answers often are, so the whole answer must be read, not its first line.
const tuiFinal = "All done: made.txt holds two lines.\n\nIt has alpha and beta."

// tuiCall is the shell tool call in each CLI's own tool vocabulary.
func tuiCall(provider string) fakemodel.ToolCall {
	switch provider {
	case "claude":
		return fakemodel.ToolCall{Name: "Bash", Args: map[string]string{"command": tuiCommand, "description": "Write made.txt"}}
	case "gemini":
		return fakemodel.ToolCall{Name: "run_shell_command", Args: map[string]string{"command": tuiCommand, "description": "Write made.txt"}}
	case "codex":
		// Codex asks only for a run outside its sandbox.
		return fakemodel.ToolCall{Name: "exec_command", Args: map[string]string{"cmd": tuiCommand,
			"sandbox_permissions": "require_escalated", "justification": "Write made.txt outside the sandbox?"}}
	}
	return fakemodel.ToolCall{Name: "bash", Args: map[string]string{"command": tuiCommand, "description": "Write made.txt"}}
}

// tuiPackages are the npm packages of the CLIs, at the versions the
// profiles were written against.
var tuiPackages = map[string]string{
	"copilot": "@github/copilot@1.0.102", "claude": "@anthropic-ai/claude-code@2.1.197",
	"gemini": "@google/gemini-cli@0.61.0", "codex": "@openai/codex@0.169.0",
}

// tuiTimeout bounds one session; a run takes a few seconds.
const tuiTimeout = 90 * time.Second

// tuiRun is one driven TUI session and what the test measured.
type tuiRun struct {
	liveRun
	ws        string
	toolUseAt time.Duration // when the tool_use line was written
	dialogAt  time.Duration // when the dialog first showed
	took      time.Duration
	trace     string // the --trace lines, shown when a run fails
}

// TestTUILive drives each real CLI (Copilot CLI, Claude Code, Gemini CLI,
// Codex) offline against the fake model server: the model asks for one
// shell command, the test plays the GUI and approves or denies it.
func TestTUILive(t *testing.T) {
	if os.Getenv("YUME_E2E") != "1" {
		t.Skip("live TUI runs: set YUME_E2E=1 (make e2e) with the CLIs installed under .e2e/npm")
	}
	for _, provider := range []string{"copilot", "claude", "gemini", "codex"} {
		for _, approve := range []bool{true, false} {
			name := provider + "/deny"
			if approve {
				name = provider + "/approve"
			}
			t.Run(name, func(t *testing.T) {
				bin := filepath.Join(tuiBinDir(t), provider)
				if _, err := os.Stat(bin); err != nil {
					t.Skipf("%s is not installed at %s: npm install --prefix .e2e/npm %s", provider, bin, tuiPackages[provider])
				}
				r := driveTUI(t, provider, approve)
				checkTUIRun(t, provider, approve, r)
				if t.Failed() {
					t.Logf("stdout:\n%s", r.raw)
					t.Logf("screen trace (last 30 KB):\n%s", tail(r.trace, 30<<10))
				}
			})
		}
	}
}

// driveTUI runs one session of provider under the production driver.
func driveTUI(t *testing.T, provider string, approve bool) tuiRun {
	t.Helper()
	leakcheck.Check(t)
	finalText := tuiFinal
	if !approve {
		finalText = "Understood, I will not run it."
	}
	srv, err := fakemodel.New(fakemodel.Script{Replies: []fakemodel.Reply{
		{Text: "Running it.", ToolCalls: []fakemodel.ToolCall{tuiCall(provider)}},
		{Text: finalText},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base := srv.URL()
	if provider == "codex" {
		base = routeSideRequests(t, srv)
	}
	binDir := tuiBinDir(t)
	sb, err := offline.Setup(provider, t.TempDir(), base, binDir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		// Codex starts an app-server daemon in a session of its own, on
		// purpose: it outlives the TUI, so the test ends it. Anything else
		// still running is a leak of the driver.
		left := leftovers(sb.Home)
		for pid, cmd := range left {
			if provider == "codex" && strings.Contains(cmd, " app-server") {
				t.Logf("ending Codex's daemon %d: %s", pid, cmd)
				continue
			}
			t.Errorf("process %d survived the session: %s", pid, cmd)
		}
		endLeftovers(left)
	}()
	prof, err := heuristics.LoadProfile(provider)
	if err != nil {
		t.Fatal(err)
	}
	const prompt = "make the file"
	argv := make([]string, len(prof.Command))
	for i, a := range prof.Command {
		argv[i] = strings.ReplaceAll(strings.ReplaceAll(a, "{prompt}", prompt), "{model}", sb.Model)
	}
	argv[0] = filepath.Join(binDir, argv[0])
	const cols, rows = 120, 40
	proc, err := ptyhost.Start(ptyhost.Options{Argv: argv, Dir: sb.Workspace, Env: tuiEnv(sb.Env), Cols: cols, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	defer proc.Close()
	clock := newDialogClock(proc, prof, cols, rows)
	out := &sink{decide: func(int, toolUse) bool { return approve }, controls: make(chan emit.Control, 16)}
	useAt := make(chan time.Duration, 4)
	out.onToolUse = func() { useAt <- time.Since(clock.start) }
	var trace bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), tuiTimeout)
	defer cancel()
	w := emit.NewWriter(out, emit.Config{Model: sb.Model, Cwd: sb.Workspace})
	if err := w.Init("default", []string{"Bash"}); err != nil {
		t.Fatal(err)
	}
	r := tuiRun{ws: sb.Workspace}
	start := time.Now()
	r.outcome, r.err = ptyhost.Drive(ctx, ptyhost.DriverConfig{
		Term: clock, Profile: prof, Out: w, Controls: out.controls, Mode: permission.Default,
		Prompt: prompt, CommandLine: strings.Join(argv, " "), Cols: cols, Rows: rows, Trace: &trace,
	})
	r.took = time.Since(start)
	if ctx.Err() != nil {
		t.Errorf("session did not end within %v", tuiTimeout)
	}
	r.dialogAt = clock.shownAt()
	select {
	case r.toolUseAt = <-useAt:
	default:
	}
	if dir := os.Getenv("YUME_TUI_TRACE_DIR"); dir != "" {
		// For refreshing heuristics/testdata/tui: every screen the rules saw.
		name := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "-")+".trace.jsonl")
		if err := os.WriteFile(name, trace.Bytes(), 0o644); err != nil {
			t.Log(err)
		}
	}
	r.raw = out.buf.Bytes()
	for _, p := range emittest.Validate(r.raw) {
		t.Errorf("conformance: %v", p)
	}
	r.parse(t, trace.Bytes())
	r.trace = trace.String()
	return r
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// checkTUIRun asserts what issue #5 asks of an approve or a deny run.
func checkTUIRun(t *testing.T, provider string, approve bool, r tuiRun) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("driver: %v", r.err)
	}
	if len(r.uses) != 1 {
		t.Fatalf("got %d tool_uses, want 1: %+v", len(r.uses), r.uses)
	}
	u := r.uses[0]
	if u.Command != tuiCommand {
		t.Errorf("tool_use command = %q, want %q", u.Command, tuiCommand)
	}
	res := r.results[u.ID]
	made := filepath.Join(r.ws, "made.txt")
	data, statErr := os.ReadFile(made)
	wantKey := map[string]string{"codex": `"y"`}[provider]
	if wantKey == "" {
		wantKey = `"\r"`
	}
	if approve {
		if res == nil || res["is_error"] == true || !strings.Contains(res.str("content"), "wrote made.txt") {
			t.Errorf("tool_result = %v, want the command's output %q", res, "wrote made.txt")
		}
		if statErr != nil || string(data) != "alpha\nbeta\n" {
			t.Errorf("made.txt = %q, %v; want the file the command writes", data, statErr)
		}
		if len(r.keys) == 0 || !contains(r.keys, "approve "+wantKey) {
			t.Errorf("keys = %q, want approve %s", r.keys, wantKey)
		}
	} else {
		if res == nil || res["is_error"] != true {
			t.Errorf("tool_result = %v, want a denial", res)
		}
		if statErr == nil {
			t.Errorf("denied run wrote made.txt")
		}
		if !contains(r.keys, `deny "\x1b"`) {
			t.Errorf("keys = %q, want deny \"\\x1b\"", r.keys)
		}
		denials, _ := r.result(t)["permission_denials"].([]any)
		if len(denials) != 1 {
			t.Errorf("permission_denials = %v, want the one denial", denials)
		}
	}
	results := 0
	for _, ev := range r.events {
		if ev.str("type") == "result" {
			results++
		}
	}
	if results != 1 {
		t.Errorf("%d result events, want 1", results)
	}
	if approve {
		if n := r.texts(tuiFinal); n != 1 {
			t.Errorf("the final answer %q was emitted %d times, want once", tuiFinal, n)
		}
	} else if n := r.texts(""); n != 1 {
		t.Errorf("%d assistant texts after the denial, want one saying the turn was stopped", n)
	}
	if r.dialogAt > 0 && r.toolUseAt > 0 {
		t.Logf("%s: dialog shown → tool_use emitted in %v; session %v; exit %+v",
			provider, (r.toolUseAt - r.dialogAt).Round(time.Millisecond), r.took.Round(time.Millisecond), r.outcome.Exit)
	}
}

// texts counts the assistant text blocks equal to want ("" counts all).
func (r *tuiRun) texts(want string) int {
	n := 0
	for _, ev := range r.events {
		if ev.str("type") != "assistant" {
			continue
		}
		for _, b := range blocks(ev) {
			if b.str("type") == "text" && (want == "" || b.str("text") == want) {
				n++
			}
		}
	}
	return n
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

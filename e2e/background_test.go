package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/yumeagent"
)

// Yume's background agents (src-tauri/src/background_agents.rs) start
// yume-cli as
//
//	yume-cli --provider anthropic --model M --cwd DIR --session-id ID --prompt P
//	         --permission-mode auto --agent-type TYPE --output-file F --async --git-branch B
//
// with stdin /dev/null and stdout and stderr piped, mark the agent
// completed when it exits 0, and show F as their AgentOutput type. These
// tests start it exactly so, for Claude Code, Gemini CLI and Codex.

// bgAgent is one background agent: its workspace (a git repository on
// main), what Yume gives it, and what it left.
type bgAgent struct {
	h        *home
	provider string // as --provider says it: anthropic for Claude Code
	id       string
	branch   string
	output   string
	prompt   string
	yumeHome string // yume-cli's session store: shared by agents run together, as in Yume

	exit           int
	stdout, stderr []byte
	events         []event
	out            yumeagent.Output
	outRaw         []byte
}

// newAgent prepares provider's sandbox with its workspace a git
// repository holding one commit, and an untracked victim folder.
func newAgent(t *testing.T, provider string, n int) *bgAgent {
	t.Helper()
	h := newHome(t, provider)
	ws := h.sb.Workspace
	gitIn(t, ws, "init", "-q", "-b", "main")
	must(t, os.WriteFile(filepath.Join(ws, "README.md"), []byte("# project\n"), 0o644))
	gitIn(t, ws, "add", "README.md")
	gitIn(t, ws, "commit", "-q", "-m", "start")
	must(t, os.MkdirAll(filepath.Join(ws, "victim"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, "victim", "keep.txt"), []byte("keep me\n"), 0o644))
	id := fmt.Sprintf("agent-%d-%04x", time.Now().UnixMilli(), n)
	as := provider
	if provider == "claude" {
		as = "anthropic" // as Yume's background agents say it
	}
	return &bgAgent{h: h, provider: as, id: id, branch: "yume-async/implementer-" + id,
		output: filepath.Join(h.sb.Home, "agent-output", id+".json"), prompt: "make the file, then clean up",
		yumeHome: filepath.Join(h.sb.Home, ".yume")}
}

// gitIn runs git in dir for the test's setup, as a person with no config.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// start runs the agent exactly as Yume starts a background agent; the
// model answers from script (set before, for agents sharing nothing).
func (a *bgAgent) run(t *testing.T) {
	t.Helper()
	sb := a.h.sb
	args := []string{"--provider", a.provider, "--model", sb.Model, "--cwd", sb.Workspace, "--session-id", a.id,
		"--prompt", a.prompt, "--permission-mode", "auto", "--agent-type", "implementer",
		"--output-file", a.output, "--async", "--git-branch", a.branch}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, yumeBin, args...)
	cmd.Env = append(interactiveEnv(sb.Env), "YUME_HOME="+a.yumeHome)
	cmd.Dir = sb.Home // Yume's own folder, not the workspace: --cwd is what counts
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr // pipes, read as the agent writes
	err := cmd.Run()                          // stdin nil: /dev/null
	if ctx.Err() != nil {
		t.Errorf("yume-cli did not end within %v", runTimeout)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		a.exit = ee.ExitCode()
	}
	a.stdout, a.stderr = stdout.Bytes(), stderr.Bytes()
	for _, p := range emittest.Validate(a.stdout) {
		t.Errorf("%s: conformance: %v", a.provider, p)
	}
	sc := bufio.NewScanner(bytes.NewReader(a.stdout))
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var ev event
		if json.Unmarshal(sc.Bytes(), &ev) == nil {
			a.events = append(a.events, ev)
		}
	}
	a.outRaw, err = os.ReadFile(a.output)
	if err != nil {
		t.Errorf("%s: the output file: %v", a.provider, err)
	} else if err := json.Unmarshal(a.outRaw, &a.out); err != nil || !a.out.Complete() {
		t.Errorf("%s: the output file is not Yume's AgentOutput (%v):\n%s", a.provider, err, a.outRaw)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s: yume-cli %s\nexit %d\nstdout:\n%s\nstderr:\n%s\noutput file:\n%s", a.provider, strings.Join(args, " "), a.exit, a.stdout, a.stderr, a.outRaw)
		}
	})
}

// stderrLines are the JSON lines of stderr of type typ.
func (a *bgAgent) stderrLines(typ string) []map[string]any {
	var out []map[string]any
	for _, l := range strings.Split(string(a.stderr), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

// checkFinished: exit 0, the workspace on the agent's branch, the
// branch_switch and progress lines, and the output file Yume reads: the
// id given, the prompt first, real usage, success.
func (a *bgAgent) checkFinished(t *testing.T) {
	t.Helper()
	if a.exit != 0 {
		t.Errorf("%s: exit %d, want 0 (Yume marks the agent failed)", a.provider, a.exit)
	}
	if got := gitIn(t, a.h.sb.Workspace, "symbolic-ref", "--short", "HEAD"); got != a.branch {
		t.Errorf("%s: the workspace is on %s, want %s", a.provider, got, a.branch)
	}
	sw := a.stderrLines("branch_switch")
	if len(sw) != 1 || sw[0]["branch"] != a.branch || sw[0]["success"] != true || sw[0]["timestamp"] == nil {
		t.Errorf("%s: branch_switch lines %v", a.provider, sw)
	}
	progress := a.stderrLines("progress")
	if len(progress) < 3 {
		t.Errorf("%s: %d progress lines: want one at the start, each turn and tool call, the end", a.provider, len(progress))
	}
	for _, p := range progress {
		if _, ok := p["turn_count"].(float64); !ok || p["current_action"] == nil || p["timestamp"] == nil {
			t.Errorf("%s: progress line %v", a.provider, p)
		}
		if _, ok := p["tokens_used"].(float64); !ok {
			t.Errorf("%s: progress line %v", a.provider, p)
		}
	}
	if n := len(progress); n > 0 && (progress[n-1]["current_action"] != "completed" || progress[n-1]["tokens_used"] == 0.0) {
		t.Errorf("%s: the last progress line %v: want completed, with the tokens", a.provider, progress[n-1])
	}
	o := a.out
	if !o.Complete() {
		return
	}
	if *o.Session.ID != a.id || !*o.Result.Success || *o.Result.NumTurns < 1 || *o.Result.DurationMs <= 0 {
		t.Errorf("%s: output session %q, result %+v", a.provider, *o.Session.ID, *o.Result)
	}
	if *o.Session.Usage.InputTokens+*o.Session.Usage.OutputTokens <= 0 {
		t.Errorf("%s: usage %+v: want the tokens the model reported", a.provider, *o.Session.Usage)
	}
	if h := *o.Session.History; len(h) == 0 || *h[0].Role != "user" || h[0].Content == nil || *h[0].Content != a.prompt {
		t.Errorf("%s: the history does not start with the prompt", a.provider)
	}
}

// toolCalls are the history's tool calls, by command.
func (a *bgAgent) toolCalls() []string {
	var out []string
	if a.out.Session == nil || a.out.Session.History == nil {
		return nil
	}
	for _, h := range *a.out.Session.History {
		for _, c := range h.ToolCalls {
			cmd, _ := c.Input["command"].(string)
			out = append(out, c.Name+": "+cmd)
		}
	}
	return out
}

// bgOrdinary writes a file; bgGuarded is one the guard blocks (rule
// recursive-delete).
const (
	bgOrdinary = "printf 'alpha\\n' > made.txt && echo wrote made.txt"
	bgGuarded  = "rm -rf victim"
)

// TestLiveBackground: each of Claude Code, Gemini CLI and Codex, started
// as Yume starts a background agent, exits 0 on its branch, its output
// file Yume's AgentOutput with real usage and the calls it made; stderr
// has the branch_switch and progress lines; an ordinary command runs and
// a guarded one is blocked (auto mode keeps the guard's list) and said;
// the agent type reaches the model where the CLI takes an instruction,
// and is said where it does not. Then four agents at once, each in its
// own workspace, finish with their own outputs.
func TestLiveBackground(t *testing.T) {
	live(t)
	for _, provider := range []string{"claude", "gemini", "codex"} {
		t.Run(provider, func(t *testing.T) {
			cliPath(t, provider)
			a := newAgent(t, provider, 0)
			a.h.srv.SetScript(fakemodel.Script{Replies: []fakemodel.Reply{
				{Text: "Making the file.", ToolCalls: []fakemodel.ToolCall{shellCall(provider, bgOrdinary, "make it")}},
				{Text: "Cleaning up.", ToolCalls: []fakemodel.ToolCall{shellCall(provider, bgGuarded, "clean up")}},
				{Text: "All done."},
			}})
			a.run(t)
			a.checkFinished(t)
			ws := a.h.sb.Workspace
			if _, err := os.Stat(filepath.Join(ws, "made.txt")); err != nil {
				t.Errorf("the ordinary command did not run: %v", err)
			}
			if _, err := os.Stat(filepath.Join(ws, "victim", "keep.txt")); err != nil {
				t.Errorf("the guarded command ran in auto mode: %v", err)
			}
			blocked := slices.ContainsFunc(a.events, func(e event) bool {
				return e.str("type") == "system" && e.str("subtype") == "error" &&
					strings.Contains(e.str("message"), "did not run "+bgGuarded+" (rule recursive-delete")
			})
			if !blocked {
				t.Errorf("no system error says the guard stopped %q", bgGuarded)
			}
			calls := a.toolCalls()
			if !slices.Contains(calls, "Bash: "+bgOrdinary) || !slices.Contains(calls, "Bash: "+bgGuarded) {
				t.Errorf("the output's tool calls %q: want both commands", calls)
			}
			checkAgentType(t, a)
			noLeftovers(t, a.h.sb.Home)
		})
	}
	for _, provider := range []string{"claude", "gemini", "codex"} {
		t.Run(provider+"/four-at-once", func(t *testing.T) {
			cliPath(t, provider)
			agents := make([]*bgAgent, 4)
			store := filepath.Join(t.TempDir(), ".yume") // one yume-cli home for all four, as Yume's
			for i := range agents {
				a := newAgent(t, provider, i+1)
				a.h.together = true
				a.yumeHome = store
				word := fmt.Sprintf("word-%d-%s", i+1, a.id)
				a.prompt = "write " + word
				a.h.srv.SetScript(fakemodel.Script{Replies: []fakemodel.Reply{
					{Text: "Writing.", ToolCalls: []fakemodel.ToolCall{shellCall(provider, "echo "+word+" > mine.txt", "write it")}},
					{Text: "Wrote " + word + "."},
				}})
				agents[i] = a
			}
			var wg sync.WaitGroup
			for _, a := range agents {
				wg.Add(1)
				go func() {
					defer wg.Done()
					a.run(t)
				}()
			}
			wg.Wait()
			for i, a := range agents {
				a.checkFinished(t)
				word := fmt.Sprintf("word-%d-%s", i+1, a.id)
				if data, _ := os.ReadFile(filepath.Join(a.h.sb.Workspace, "mine.txt")); string(data) != word+"\n" {
					t.Errorf("agent %d wrote %q, want its word", i+1, data)
				}
				last := ""
				if h := a.out.Session; h != nil && h.History != nil {
					for _, e := range *h.History {
						if *e.Role == "assistant" && e.Content != nil {
							last = *e.Content
						}
					}
				}
				if last != "Wrote "+word+"." {
					t.Errorf("agent %d's output ends with %q: want its own answer", i+1, last)
				}
				noLeftovers(t, a.h.sb.Home)
			}
			checkOwnSessions(t, store, agents)
		})
	}
}

// checkAgentType: Claude Code and Codex take the role as an instruction
// (their requests to the model carry it); Gemini CLI takes none, and a
// system notice says so.
func checkAgentType(t *testing.T, a *bgAgent) {
	t.Helper()
	const role = "You are Yume's implementer agent"
	sent := slices.ContainsFunc(a.h.srv.AgentRequests(), func(r fakemodel.Request) bool { return r.Contains(role) })
	said := slices.ContainsFunc(a.events, func(e event) bool {
		return e.str("subtype") == "notice" && strings.Contains(e.str("message"), "--agent-type implementer: Gemini CLI takes no instruction")
	})
	switch a.provider {
	case "gemini":
		if !said || sent {
			t.Errorf("gemini: notice %v, role sent %v: want the notice, and no role", said, sent)
		}
	default:
		if !sent || said {
			t.Errorf("%s: role sent %v, notice %v: want the role in the model's requests", a.provider, sent, said)
		}
	}
}

// checkOwnSessions: agents run together, sharing one session store, each
// left its own session there: its id, its workspace, its own words, and a
// provider session no other agent has.
func checkOwnSessions(t *testing.T, store string, agents []*bgAgent) {
	t.Helper()
	handles := map[string]string{}
	for i, a := range agents {
		cmd := exec.Command(yumeBin, "sessions", "show", a.id, "--json")
		cmd.Env = append(os.Environ(), "YUME_HOME="+store)
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("agent %d: sessions show %s: %v", i+1, a.id, err)
			continue
		}
		var s struct {
			ID, Cwd, Handle string
			History         []struct{ Text string }
		}
		if err := json.Unmarshal(out, &s); err != nil {
			t.Errorf("agent %d: sessions show: %v\n%s", i+1, err, out)
			continue
		}
		word := fmt.Sprintf("word-%d-%s", i+1, a.id)
		mine := slices.ContainsFunc(s.History, func(h struct{ Text string }) bool { return h.Text == "Wrote "+word+"." })
		if s.ID != a.id || s.Cwd != a.h.sb.Workspace || !mine {
			t.Errorf("agent %d's stored session: id %q cwd %q, its answer there %v:\n%s", i+1, s.ID, s.Cwd, mine, out)
		}
		if other, taken := handles[s.Handle]; taken && s.Handle != "" {
			t.Errorf("agents %s and %s share the provider session %s", other, a.id, s.Handle)
		}
		handles[s.Handle] = a.id
	}
}

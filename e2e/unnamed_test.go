package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
)

// unnamedCommand is the command the model asks each unnamed agent to run:
// its output (RESULT-42) is computed by the shell and is not in its text,
// so a tool_result holding it holds what the command printed.
const (
	unnamedCommand = "printf 'made\\n' > made.txt && echo RESULT-$((6*7))"
	unnamedOutput  = "RESULT-42"
	unnamedPrompt  = "make the file"
	// unnamedBound bounds one turn of an unnamed agent: it starts in 2-5 s,
	// and Cline takes up to 9 s to quit.
	unnamedBound = 90 * time.Second
)

// unnamedAgent is a coding agent from npm that yume-cli has no profile
// for, run as a user runs any program: `yume-cli --provider generic
// --permission-mode default --prompt P -- PROGRAM ASK-FLAGS…`, the prompt
// typed into the agent's own input box by yume-cli (never on its command
// line), in the offline sandbox of the same name (offline/unnamed.go).
type unnamedAgent struct {
	name    string // its sandbox (offline.Unnamed) and the subtests' name
	program string // in .e2e/bin (scripts/e2e-deps.sh)
	// ask are the arguments a user gives it so it asks before a shell
	// command (and, for cn, names its config); nil: it asks by default.
	ask func(sb *offline.Sandbox) []string
	// shell is the model's call of the agent's own shell tool.
	shell func(command string) fakemodel.ToolCall
	// drawsOutput: what a command printed is on its screen once it ran.
	// nanocoder's final screen says only "⚒ Ran 1 command": its tool_result
	// must then say, in one line, that the program did not show the output.
	drawsOutput bool
	// acp, when set, is its ACP mode, run as any ACP agent (--provider
	// acp -- ARGV…), with acpEnv added as its user would.
	acp    []string
	acpEnv func(sb *offline.Sandbox) []string
	// daemon, when set, marks the command line of a background process it
	// starts in a session of its own: none may outlive yume-cli.
	daemon string
	// untrust, when set, takes the workspace off its trusted list: its
	// first screen is then a question whose text mentions trustWord.
	untrust   func(t *testing.T, sb *offline.Sandbox)
	trustWord string
}

// unnamedAgents: a fifth agent is one row (and its sandbox in offline).
var unnamedAgents = []unnamedAgent{
	{
		name: "cline", program: "cline",
		// It approves every tool unless told not to.
		ask: func(*offline.Sandbox) []string { return []string{"--auto-approve", "false"} },
		shell: func(c string) fakemodel.ToolCall {
			return fakemodel.ToolCall{Name: "run_commands", Args: map[string]any{"commands": []string{c}}}
		},
		drawsOutput: true,
		acp:         []string{"cline", "--acp"},
		// Without a key in its environment session/new fails "Authentication
		// required"; the model it names must be one of its provider's list
		// (gpt-4o) or a session/set_model, the fake answers any.
		acpEnv: func(*offline.Sandbox) []string {
			return []string{"CLINE_PROVIDER=openai-compatible", "CLINE_API_KEY=" + offline.FakeKey, "CLINE_MODEL=m"}
		},
		daemon: "--cline-hub-daemon",
	},
	{
		name: "cn", program: "cn",
		// Its TUI asks before Bash by default; the config is the one the
		// sandbox wrote (with it, no first-run question for a key).
		ask: func(sb *offline.Sandbox) []string {
			return []string{"--config", filepath.Join(sb.Home, offline.ContinueConfig)}
		},
		shell: func(c string) fakemodel.ToolCall {
			return fakemodel.ToolCall{Name: "Bash", Args: map[string]any{"command": c}}
		},
		drawsOutput: true,
	},
	{
		name: "grok", program: "grok", // asks before every bash command by default
		shell: func(c string) fakemodel.ToolCall {
			return fakemodel.ToolCall{Name: "bash", Args: map[string]any{"command": c}}
		},
		drawsOutput: true,
	},
	{
		name: "nanocoder", program: "nanocoder", // asks before execute_bash by default
		shell: func(c string) fakemodel.ToolCall {
			return fakemodel.ToolCall{Name: "execute_bash", Args: map[string]any{"command": c}}
		},
		untrust: func(t *testing.T, sb *offline.Sandbox) {
			t.Helper()
			must(t, os.WriteFile(filepath.Join(sb.Home, offline.NanocoderPreferences), []byte("{}\n"), 0o600))
		},
		trustWord: "trust",
	},
}

func (ag unnamedAgent) script() fakemodel.Script {
	return fakemodel.Script{Replies: []fakemodel.Reply{
		{Text: "Running it.", ToolCalls: []fakemodel.ToolCall{ag.shell(unnamedCommand)}},
		{Text: "All done."},
	}}
}

// TestLiveUnnamedAgents drives agents yume-cli was never taught, as any
// program (--provider generic): the prompt is typed into the agent's input
// box; its question before the command is one Bash tool_use of exactly
// the command the model asked for; approved, the command runs and its
// output is the tool_result (or, where the agent never draws it, a line
// saying so); denied, it does not run and the result is a denial; the turn
// ends with a result and exit 0. Cline also runs as any ACP agent; its hub
// daemon must not outlive yume-cli; nanocoder's trust question, on a
// workspace it does not trust, reaches the GUI as a question.
func TestLiveUnnamedAgents(t *testing.T) {
	live(t)
	for ai, ag := range unnamedAgents {
		for vi, approve := range []bool{true, false} {
			verdict := map[bool]string{true: "approve", false: "deny"}[approve]
			t.Run(ag.name+"/"+verdict, func(t *testing.T) {
				cell(t, ai, len(unnamedAgents), vi, 2)
				cliPath(t, ag.program)
				h := newHome(t, ag.name)
				h.provider = "generic"
				r := runUnnamed(t, h, ag, agentGUI(t, agentRun{verdict, "default", &approve, approve}), ag.argv(h.sb)...)
				checkUnnamed(t, h, r, ag.drawsOutput, approve)
				t.Logf("%s/%s (generic): %v; %s", ag.name, verdict, r.took.Round(time.Millisecond), r.summary())
			})
		}
		if ag.acp != nil {
			for vi, approve := range []bool{true, false} {
				verdict := map[bool]string{true: "approve", false: "deny"}[approve]
				t.Run(ag.name+"/acp/"+verdict, func(t *testing.T) {
					cell(t, ai, len(unnamedAgents), 1-vi, 2) // the verdict its TUI run does not have
					cliPath(t, ag.program)
					h := newHome(t, ag.name)
					h.provider = "acp"
					if ag.acpEnv != nil {
						h.sb.Env = append(h.sb.Env, ag.acpEnv(h.sb)...)
					}
					r := runUnnamed(t, h, ag, agentGUI(t, agentRun{verdict, "default", &approve, approve}), ag.acp...)
					// Over ACP the output is in the protocol: it must be there.
					checkUnnamed(t, h, r, true, approve)
					t.Logf("%s/acp/%s: %v; %s", ag.name, verdict, r.took.Round(time.Millisecond), r.summary())
				})
			}
		}
		if ag.untrust != nil {
			t.Run(ag.name+"/untrusted", func(t *testing.T) {
				cliPath(t, ag.program)
				h := newHome(t, ag.name)
				h.provider = "generic"
				ag.untrust(t, h.sb)
				r := runUnnamed(t, h, ag, gui{answer: func(int) bool { return true }}, ag.argv(h.sb)...)
				checkTrustAsked(t, r, ag.trustWord)
				t.Logf("%s/untrusted: %v; %s", ag.name, r.took.Round(time.Millisecond), r.summary())
			})
		}
	}
}

// argv is the agent's command line as its user types it: no prompt.
func (ag unnamedAgent) argv(sb *offline.Sandbox) []string {
	argv := []string{ag.program}
	if ag.ask != nil {
		argv = append(argv, ag.ask(sb)...)
	}
	return argv
}

// runUnnamed runs yume-cli in h, in default mode with the prompt, on
// command; then checks that the agent's daemon, if it has one, is gone,
// before what else the session left (noLeftovers).
func runUnnamed(t *testing.T, h *home, ag unnamedAgent, g gui, command ...string) *run {
	t.Helper()
	h.together = true // noLeftovers after the daemon's own check
	t.Cleanup(func() { noLeftovers(t, h.sb.Home) })
	flags := append([]string{"--permission-mode", "default", "--prompt", unnamedPrompt, "--"}, command...)
	r := h.run(t, ag.script(), g, flags...)
	if ag.daemon != "" {
		noDaemon(t, h.sb.Home, ag.daemon)
	}
	return r
}

// checkUnnamed checks one run of unnamedCommand, approved or denied.
func checkUnnamed(t *testing.T, h *home, r *run, drawsOutput, approve bool) {
	t.Helper()
	var u *use
	if len(r.uses) != 1 || r.uses[0].Name != "Bash" || r.uses[0].Input["command"] != unnamedCommand {
		t.Errorf("tool_uses %+v: want one Bash whose command is exactly %q", r.uses, unnamedCommand)
	}
	for i := range r.uses {
		if r.uses[i].Name == "Bash" && u == nil {
			u = &r.uses[i]
		}
	}
	if r.asked != 1 {
		t.Errorf("the GUI was asked %d times, want once", r.asked)
	}
	_, err := os.Stat(filepath.Join(r.sb.Workspace, "made.txt"))
	if ran := err == nil; ran != approve {
		t.Errorf("made.txt exists = %v, want %v", ran, approve)
	}
	var res result
	reported := false
	if u != nil {
		res, reported = r.results[u.ID]
	}
	f := r.final()
	switch {
	case approve:
		shown := strings.Contains(res.Content, unnamedOutput)
		if !reported || res.IsError || !(shown || !drawsOutput && saysNotShown(res.Content)) {
			want := "the command's output (" + unnamedOutput + ")"
			if !drawsOutput {
				want += ", or one line saying the program did not show it"
			}
			t.Errorf("tool_result %+v (reported %v): want %s", res, reported, want)
		}
		if f != nil && f["is_error"] == true {
			t.Errorf("result is an error: %s", f.str("result"))
		}
	default:
		if !reported || !res.IsError {
			t.Errorf("tool_result %+v (reported %v): want the denial (is_error)", res, reported)
		}
		if f != nil {
			if denials, _ := f["permission_denials"].([]any); len(denials) != 1 {
				t.Errorf("permission_denials %v: want the denied call", f["permission_denials"])
			}
		}
	}
	if f == nil {
		t.Errorf("no result event")
	}
	if r.exit != 0 {
		t.Errorf("yume-cli exited %d, want 0", r.exit)
	}
	if r.took > unnamedBound {
		t.Errorf("the run took %v, want at most %v", r.took.Round(time.Second), unnamedBound)
	}
	if !promptReached(h, unnamedPrompt) {
		t.Errorf("no model request carries the prompt %q: it was never typed into the agent", unnamedPrompt)
	}
}

// summary is what the run reported, for the log: each tool_use and its
// result, the assistant texts, and the result event.
func (r *run) summary() string {
	var b strings.Builder
	for _, u := range r.uses {
		res, ok := r.results[u.ID]
		fmt.Fprintf(&b, "%s %q -> ", u.Name, u.Input["command"])
		if !ok {
			b.WriteString("no tool_result; ")
			continue
		}
		fmt.Fprintf(&b, "%q (is_error %v); ", tail(res.Content, 200), res.IsError)
	}
	fmt.Fprintf(&b, "texts %q; ", r.texts())
	if f := r.final(); f != nil {
		fmt.Fprintf(&b, "result %q (is_error %v), exit %d", tail(f.str("result"), 200), f["is_error"], r.exit)
	} else {
		fmt.Fprintf(&b, "no result, exit %d", r.exit)
	}
	return b.String()
}

// saysNotShown: one line that says the program did not show the output.
var (
	notWord    = regexp.MustCompile(`(?i)(\bnot\b|n't\b|\bnever\b|\bno\b)`)
	outputWord = regexp.MustCompile(`(?i)\b(output|print|printed|prints|show|shows|shown|showed|draw|draws|drew|drawn|display|displayed)\b`)
)

func saysNotShown(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && !strings.Contains(s, "\n") && notWord.MatchString(s) && outputWord.MatchString(s)
}

// promptReached: a request to the model carries the prompt.
func promptReached(h *home, prompt string) bool {
	for _, req := range h.srv.Requests() {
		if req.Contains(prompt) {
			return true
		}
	}
	return false
}

// checkTrustAsked: the first question the GUI was asked is the agent's
// trust question (a tool_use asked about, not an error), before any
// command; trusted, the turn goes on to the command.
func checkTrustAsked(t *testing.T, r *run, word string) {
	t.Helper()
	firstBash, firstAsk := -1, -1
	var asked, askedID string
	for i, e := range r.events {
		if firstBash < 0 && e.str("type") == "assistant" {
			msg, _ := e["message"].(map[string]any)
			blocks, _ := msg["content"].([]any)
			for _, b := range blocks {
				if m, _ := b.(map[string]any); m["type"] == "tool_use" && m["name"] == "Bash" {
					firstBash = i
				}
			}
		}
		if req, _ := e["request"].(map[string]any); firstAsk < 0 && e.str("type") == "control_request" && req["subtype"] == "can_use_tool" {
			firstAsk, askedID = i, fmt.Sprint(req["tool_use_id"])
			b, _ := json.Marshal(map[string]any{"tool_name": req["tool_name"], "input": req["input"]})
			asked = string(b)
		}
	}
	switch {
	case firstAsk < 0:
		t.Errorf("the GUI was never asked: want the %q question first", word)
	case !strings.Contains(strings.ToLower(asked), word):
		t.Errorf("the GUI's first question does not mention %q: %s", word, asked)
	case firstBash >= 0 && firstBash < firstAsk:
		t.Errorf("a Bash tool_use came before the %q question", word)
	case !slices.ContainsFunc(r.uses, func(u use) bool { return u.ID == askedID }):
		t.Errorf("the %q question (tool_use_id %s) is no tool_use of the run: %+v", word, askedID, r.uses)
	}
	if f := r.final(); f == nil || f["is_error"] == true {
		t.Errorf("result %v: want the turn to go on once the folder is trusted", f)
	}
	if _, err := os.Stat(filepath.Join(r.sb.Workspace, "made.txt")); err != nil {
		t.Errorf("the command did not run after the folder was trusted and the command approved")
	}
}

// noDaemon fails t for each process whose command line has mark and whose
// HOME is home (so this test started it) still running 5 s after yume-cli
// ended, and ends those processes when the test is done.
func noDaemon(t *testing.T, home, mark string) {
	t.Helper()
	left := daemons(home, mark)
	for deadline := time.Now().Add(5 * time.Second); len(left) > 0 && time.Now().Before(deadline); left = daemons(home, mark) {
		time.Sleep(100 * time.Millisecond) // Polling: a daemon told to stop takes a moment.
	}
	if len(left) == 0 {
		return
	}
	for pid, c := range left {
		t.Errorf("the agent's daemon outlived yume-cli: pid %d: %s", pid, c)
	}
	t.Cleanup(func() {
		for pid := range left {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Signal(syscall.SIGTERM) // Best effort: it exits within about 3 s.
			}
		}
		for deadline := time.Now().Add(5 * time.Second); len(daemons(home, mark)) > 0 && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond) // Polling: as above.
		}
		for pid := range daemons(home, mark) {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill() // Best effort: reported above.
			}
		}
	})
}

// daemons are the live processes whose command line has mark and whose
// environment's HOME is home.
func daemons(home, mark string) map[int]string {
	out := map[int]string{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		dir := filepath.Join("/proc", e.Name())
		cmdline, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
		if !strings.Contains(string(cmdline), mark) {
			continue
		}
		if stat, _ := os.ReadFile(filepath.Join(dir, "stat")); strings.Contains(string(stat), ") Z ") {
			continue // a zombie is gone, only unreaped
		}
		environ, _ := os.ReadFile(filepath.Join(dir, "environ"))
		for _, kv := range strings.Split(string(environ), "\x00") {
			if kv == "HOME="+home {
				out[pid] = strings.ReplaceAll(string(cmdline), "\x00", " ")
			}
		}
	}
	return out
}

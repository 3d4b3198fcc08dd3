package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// agents are the ACP agents driven by name; each runs offline against the
// fake model with its sandbox's quiet switches (offline/agents.go), whose
// configs set no permission: yume-cli must make each ask.
var agents = []string{"opencode", "kilo", "qwen"}

// agentShell is the agent's own shell tool asking to run command.
func agentShell(agent, command string) fakemodel.ToolCall {
	if agent == "qwen" {
		return fakemodel.ToolCall{Name: "run_shell_command", Args: map[string]string{"command": command, "description": "make the file"}}
	}
	return fakemodel.ToolCall{Name: "bash", Args: map[string]string{"command": command, "description": "make the file"}}
}

// agentWrite is the agent's own tool writing a new file.
func agentWrite(agent, path, content string) fakemodel.ToolCall {
	if agent == "qwen" {
		return fakemodel.ToolCall{Name: "write_file", Args: map[string]string{"file_path": path, "content": content}}
	}
	return fakemodel.ToolCall{Name: "write", Args: map[string]string{"filePath": path, "content": content}}
}

func agentScript(agent string) fakemodel.Script {
	return fakemodel.Script{Replies: []fakemodel.Reply{
		{Text: "Running it.", ToolCalls: []fakemodel.ToolCall{agentShell(agent, oneCommand)}},
		{Text: "All done."},
	}}
}

// agentRun is one scenario: the yume-cli flags, the GUI, and what must hold.
type agentRun struct {
	name    string
	perm    string
	approve *bool // the GUI's answer; nil: it must not be asked
	ran     bool  // the command ran
}

// TestLiveAgents drives opencode, Kilo and Qwen Code over ACP by name, and
// opencode and Qwen Code as any ACP agent (--provider acp -- CMD…): an
// approved command runs and its output is the tool_result; a denied one
// does not run and is an error; auto mode runs it unasked and says who
// approved it; a file edit is a Write; a two-turn chat keeps its memory.
func TestLiveAgents(t *testing.T) {
	live(t)
	yes, no := true, false
	runs := []agentRun{
		{"approve", "default", &yes, true},
		{"deny", "default", &no, false},
		{"auto", "auto", nil, true},
		{"deny-mode", "deny", nil, false},
	}
	for _, agent := range agents {
		for ri, ar := range runs {
			t.Run(agent+"/"+ar.name, func(t *testing.T) {
				cellOf(t, agent, agents, ri, len(runs)+6)
				cliPath(t, agent)
				h := newHome(t, agent)
				r := h.run(t, agentScript(agent), agentGUI(t, ar), "--permission-mode", ar.perm, "--prompt", "make the file")
				checkAgentRun(t, r, ar, agent)
			})
		}
		t.Run(agent+"/edit", func(t *testing.T) {
			cellOf(t, agent, agents, len(runs), len(runs)+6)
			cliPath(t, agent)
			testAgentEdit(t, newHome(t, agent), agent)
		})
		t.Run(agent+"/conversation", func(t *testing.T) {
			cellOf(t, agent, agents, len(runs)+1, len(runs)+6)
			cliPath(t, agent)
			testAgentConversation(t, newHome(t, agent), agent)
		})
		t.Run(agent+"/config-allows", func(t *testing.T) {
			// The user's own config lets every command run: yume-cli's
			// setting wins, and the command is still asked about.
			cellOf(t, agent, agents, len(runs)+2, len(runs)+6)
			cliPath(t, agent)
			h := newHome(t, agent)
			allowInConfig(t, h, agent)
			r := h.run(t, agentScript(agent), agentGUI(t, runs[0]), "--prompt", "make the file")
			checkAgentRun(t, r, runs[0], agent)
		})
		t.Run(agent+"/persistent", func(t *testing.T) {
			cellOf(t, agent, agents, len(runs)+3, len(runs)+6)
			cliPath(t, agent)
			testAgentPersistent(t, newHome(t, agent))
		})
		t.Run(agent+"/interrupt", func(t *testing.T) {
			cellOf(t, agent, agents, len(runs)+4, len(runs)+6)
			cliPath(t, agent)
			testAgentInterrupt(t, newHome(t, agent))
		})
		t.Run(agent+"/api-base", func(t *testing.T) {
			cellOf(t, agent, agents, len(runs)+5, len(runs)+6)
			cliPath(t, agent)
			h := newHome(t, agent)
			// The sandbox's own endpoint goes nowhere: only --api-base
			// reaches the model.
			realURL := h.srv.URL() + "/v1"
			breakEndpoint(t, h, agent)
			r := h.run(t, agentScript(agent), agentGUI(t, runs[0]), "--api-base", realURL, "--prompt", "make the file")
			checkAgentRun(t, r, runs[0], agent)
		})
	}
	// opencode and Kilo in `run --format json` and headless Qwen Code,
	// which cannot ask: auto and deny mode only.
	for _, agent := range agents {
		for ri, ar := range []agentRun{runs[2], runs[3]} {
			t.Run(agent+"/json/"+ar.name, func(t *testing.T) {
				cellOf(t, agent, agents, ri, 4)
				cliPath(t, agent)
				r := newHome(t, agent).run(t, agentScript(agent), agentGUI(t, ar), "--mode", "json", "--permission-mode", ar.perm, "--prompt", "make the file")
				checkAgentRun(t, r, ar, agent)
			})
		}
		t.Run(agent+"/json/default-refused", func(t *testing.T) {
			cellOf(t, agent, agents, 2, 4)
			cliPath(t, agent)
			r := newHome(t, agent).run(t, agentScript(agent), agentGUI(t, runs[0]), "--mode", "json", "--prompt", "make the file")
			if f := r.final(); f == nil || f["is_error"] != true || !strings.Contains(string(r.raw), "cannot ask before a command") || r.exit != 1 {
				t.Errorf("exit %d, result %v: want an error saying json mode cannot ask", r.exit, f)
			}
		})
		t.Run(agent+"/json/conversation", func(t *testing.T) {
			cellOf(t, agent, agents, 3, 4)
			cliPath(t, agent)
			testAgentConversation(t, newHome(t, agent), agent, "--mode", "json", "--permission-mode", "auto")
		})
	}
	// Any ACP agent: yume-cli adds nothing to its command line, so the
	// permission setting that makes it ask is the user's (here the env).
	generic := map[string]struct {
		argv []string
		env  string
	}{
		"opencode": {[]string{"opencode", "acp"}, `OPENCODE_PERMISSION={"bash":"ask","edit":"ask"}`},
		"qwen":     {[]string{"qwen", "--acp", "--approval-mode", "default"}, ""},
	}
	for ai, agent := range []string{"opencode", "qwen"} {
		t.Run("acp/"+agent+"/conversation", func(t *testing.T) {
			cell(t, ai, 2, 0, 3)
			cliPath(t, agent)
			h := newHome(t, agent)
			h.provider = "acp"
			testAgentConversation(t, h, agent, append([]string{"--"}, generic[agent].argv...)...)
		})
		for ri, ar := range runs[:2] {
			t.Run("acp/"+agent+"/"+ar.name, func(t *testing.T) {
				cell(t, ai, 2, 1+ri, 3)
				cliPath(t, agent)
				h := newHome(t, agent)
				h.provider = "acp"
				if g := generic[agent]; g.env != "" {
					h.sb.Env = append(h.sb.Env, g.env)
				}
				flags := append([]string{"--permission-mode", ar.perm, "--prompt", "make the file", "--"}, generic[agent].argv...)
				r := h.run(t, agentScript(agent), agentGUI(t, ar), flags...)
				checkAgentRun(t, r, ar, agent)
			})
		}
	}
}

// agentGUI answers as ar says, and fails the test when asked unexpectedly.
func agentGUI(t *testing.T, ar agentRun) gui {
	return gui{answer: func(int) bool {
		if ar.approve == nil {
			t.Errorf("the GUI was asked in %s mode", ar.perm)
			return false
		}
		return *ar.approve
	}}
}

// commandRun checks what every agent run of oneCommand shares, in any
// mode: one Bash tool_use with the exact command, the file made only if
// it ran, and a result; it returns them for the mode's own checks.
func commandRun(t *testing.T, r *run, ar agentRun) (u use, res result, reported bool, f event, denials []any) {
	t.Helper()
	if len(r.uses) != 1 || r.uses[0].Name != "Bash" || r.uses[0].Input["command"] != oneCommand {
		t.Fatalf("tool_uses %+v: want one Bash with the exact command %q", r.uses, oneCommand)
	}
	u = r.uses[0]
	res, reported = r.results[u.ID]
	_, err := os.Stat(filepath.Join(r.sb.Workspace, "made.txt"))
	if ran := err == nil; ran != ar.ran {
		t.Errorf("the command ran = %v, want %v", ran, ar.ran)
	}
	if f = r.final(); f == nil {
		t.Fatal("no result")
	}
	denials, _ = f["permission_denials"].([]any)
	return u, res, reported, f, denials
}

func checkAgentRun(t *testing.T, r *run, ar agentRun, agent string) {
	t.Helper()
	u, res, ok, f, denials := commandRun(t, r, ar)
	switch {
	case ar.ran:
		if !ok || res.IsError || !strings.Contains(res.Content, "wrote made.txt") || !strings.Contains(res.Content, "\n40") {
			t.Errorf("tool_result %+v (reported %v): want the command's whole output", res, ok)
		}
		if f["is_error"] == true || len(denials) != 0 || !strings.Contains(f.str("result"), "All done.") {
			t.Errorf("result %v: want success with the answer", f)
		}
	default:
		if !ok || !res.IsError {
			t.Errorf("tool_result %+v (reported %v): want the denial (is_error)", res, ok)
		}
		if len(denials) != 1 {
			t.Errorf("permission_denials %v: want the denied call", f["permission_denials"])
		}
	}
	if ar.perm == "auto" && r.asked == 0 {
		if by, _ := u.Input["approved_by"].(string); !strings.Contains(by, map[string]string{"qwen": "yolo"}[agent]) || by == "" {
			t.Errorf("tool_use input %v: want approved_by naming %s's allow-all", u.Input, agent)
		}
	}
	if ar.approve != nil && r.asked != 1 {
		t.Errorf("the GUI was asked %d times, want once", r.asked)
	}
	t.Logf("%s/%s: %v", agent, ar.name, r.took.Round(time.Millisecond))
}

// testAgentEdit: the agent writes a new file; it is reported as a Write
// of that file with its content, asked about, and written once approved.
func testAgentEdit(t *testing.T, h *home, agent string) {
	path := filepath.Join(h.sb.Workspace, "notes.md")
	script := fakemodel.Script{Replies: []fakemodel.Reply{
		{Text: "Writing it.", ToolCalls: []fakemodel.ToolCall{agentWrite(agent, path, "# Notes\nhello\n")}},
		{Text: "Written."},
	}}
	r := h.run(t, script, gui{answer: func(int) bool { return true }}, "--prompt", "write the notes")
	if len(r.uses) != 1 || r.uses[0].Name != "Write" || r.uses[0].Input["file_path"] != path || r.uses[0].Input["content"] != "# Notes\nhello\n" {
		t.Fatalf("tool_uses %+v: want one Write of %s with its content", r.uses, path)
	}
	if r.asked != 1 {
		t.Errorf("the GUI was asked %d times, want once (the edit)", r.asked)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "# Notes\nhello\n" {
		t.Errorf("the file is %q, %v", b, err)
	}
	if res := r.results[r.uses[0].ID]; res.IsError {
		t.Errorf("tool_result %+v", res)
	}
}

// testAgentConversation: two yume-cli processes, the second resuming the
// first by its init session_id; turn 2's model request carries turn 1.
func testAgentConversation(t *testing.T, h *home, agent string, command ...string) {
	word := "pineapple-" + agent
	first := h.run(t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Noted the word."}}}, gui{},
		append([]string{"--prompt", "remember the word " + word}, command...)...)
	id := first.initSession()
	if f := first.final(); f == nil || f["is_error"] == true || id == "" {
		t.Fatalf("turn 1 failed (init session %q): %v\nstderr: %s", id, f, first.stderr)
	}
	before := len(h.srv.AgentRequests())
	second := h.run(t, fakemodel.Script{Replies: []fakemodel.Reply{{Text: "The word was " + word + "."}}}, gui{},
		append([]string{"--resume", id, "--prompt", "which word did I ask you to remember?"}, command...)...)
	if f := second.final(); f == nil || f["is_error"] == true {
		t.Fatalf("turn 2 failed: %v\nstderr: %s", f, second.stderr)
	}
	if got := second.initSession(); got != id {
		t.Errorf("turn 2's init session_id %q, want turn 1's %q", got, id)
	}
	if strings.Contains(strings.Join(second.texts(), "\n"), "Noted the word.") {
		t.Errorf("turn 2 repeats turn 1's answer (the replayed session reached the stream): %q", second.texts())
	}
	reqs := h.srv.AgentRequests()[before:]
	if len(reqs) == 0 {
		t.Fatal("turn 2 never reached the model")
	}
	if last := reqs[len(reqs)-1]; !last.Contains(word) || !last.Contains("Noted the word.") {
		t.Errorf("turn 2's request to the model does not carry turn 1 (its prompt and answer)")
	}
}

// testAgentInterrupt: the GUI interrupts at the question; yume-cli cancels
// the agent's turn (session/cancel, the question answered cancelled), the
// command never runs, and the turn ends as interrupted.
func testAgentInterrupt(t *testing.T, h *home) {
	r := h.run(t, agentScript(h.provider), gui{interrupt: true}, "--prompt", "make the file")
	if _, err := os.Stat(filepath.Join(r.sb.Workspace, "made.txt")); err == nil {
		t.Error("the command ran after the interrupt")
	}
	interrupted := false
	for _, e := range r.events {
		interrupted = interrupted || e.str("type") == "interrupt"
	}
	if f := r.final(); !interrupted || f == nil || f["is_error"] != true || r.asked != 1 {
		t.Errorf("interrupt event %v, result %v, asked %d: want an interrupted turn after one question", interrupted, f, r.asked)
	}
}

// breakEndpoint points the sandbox's own model endpoint at a dead port.
func breakEndpoint(t *testing.T, h *home, agent string) {
	t.Helper()
	dead := "http://127.0.0.1:9/v1"
	if agent == "qwen" {
		h.sb.Env = append(h.sb.Env, "OPENAI_BASE_URL="+dead)
		return
	}
	path := filepath.Join(h.sb.Home, ".config", agent, agent+".json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.ReplaceAll(string(b), h.srv.URL()+"/v1", dead)
	if fixed == string(b) {
		t.Fatalf("%s names no %s/v1", path, h.srv.URL())
	}
	if err := os.WriteFile(path, []byte(fixed), 0o600); err != nil {
		t.Fatal(err)
	}
}

// testAgentPersistent: one yume-cli process, prompts as user frames: turn 2
// sees turn 1, turn 3 is interrupted at its question, turn 4 still works,
// and stdin's end ends the session.
func testAgentPersistent(t *testing.T, h *home) {
	word := "kiwi-" + h.provider
	h.srv.SetScript(fakemodel.Script{Replies: []fakemodel.Reply{
		{Text: "Noted the word."},
		{Text: "The word was " + word + "."},
		{Text: "Running it.", ToolCalls: []fakemodel.ToolCall{agentShell(h.provider, oneCommand)}},
		{Text: "Still here."},
	}})
	s := startSession(t, h, "start", "--session-id", "chat-"+h.provider)
	s.send(map[string]any{"type": "user", "content": "remember the word " + word})
	if r := s.waitFor(t, "turn 1's result", isResult); r["is_error"] == true {
		t.Fatalf("turn 1: %v", r)
	}
	before := len(h.srv.AgentRequests())
	s.send(map[string]any{"type": "user", "content": "which word did I ask you to remember?"})
	if r := s.waitFor(t, "turn 2's result", isResult); r["is_error"] == true {
		t.Fatalf("turn 2: %v", r)
	}
	if reqs := h.srv.AgentRequests()[before:]; len(reqs) == 0 || !reqs[len(reqs)-1].Contains(word) {
		t.Errorf("turn 2's request does not carry turn 1")
	}
	s.send(map[string]any{"type": "user", "content": "make the file"})
	s.waitFor(t, "turn 3's question", func(e event) bool { return e.str("type") == "control_request" })
	s.send(map[string]any{"type": "interrupt"})
	if r := s.waitFor(t, "turn 3's result", isResult); r["is_error"] != true {
		t.Errorf("an interrupted turn ended without an error result: %v", r)
	}
	s.send(map[string]any{"type": "user", "content": "are you still there?"})
	if r := s.waitFor(t, "turn 4's result", isResult); r["is_error"] == true || r.str("result") != "Still here." {
		t.Errorf("the turn after an interrupt: %v", r)
	}
	if code := s.close(t); code != 0 {
		t.Errorf("exit %d at stdin's end, want 0", code)
	}
	if _, err := os.Stat(filepath.Join(h.sb.Workspace, "made.txt")); err == nil {
		t.Error("the interrupted command ran")
	}
}

// allowInConfig makes the agent's own config run every shell command and
// edit without asking.
func allowInConfig(t *testing.T, h *home, agent string) {
	t.Helper()
	path := filepath.Join(h.sb.Home, ".config", agent, agent+".json")
	key := `"permission": {"bash": "allow", "edit": "allow"},`
	if agent == "qwen" {
		path, key = filepath.Join(h.sb.Home, ".qwen", "settings.json"), `"tools": {"approvalMode": "yolo"},`
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), "{") {
		t.Fatalf("%s: %v", path, err)
	}
	if err := os.WriteFile(path, []byte("{"+key+string(b[1:])), 0o600); err != nil {
		t.Fatal(err)
	}
}

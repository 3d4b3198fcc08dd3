package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// tuiOutput is what each agent's TUI mode reports of the command's output:
// all of it, from the agent's transcript (Qwen's chat file; opencode's and
// Kilo's database, read from their TUI's server), where their screens show
// the first rows only.
var tuiOutput = map[string][]string{
	"opencode": {"wrote made.txt\n1\n2\n", "\n39\n40"},
	"kilo":     {"wrote made.txt\n1\n2\n", "\n39\n40"},
	"qwen":     {"wrote made.txt\n1\n2\n", "\n39\n40"},
}

// TestLiveAgentsTUI drives opencode, Kilo and Qwen Code in their TUIs
// (--mode pty), offline: an approved command runs and its output is the
// tool_result; a denied one does not run and is an error; auto mode runs
// it without asking the GUI and reports it, saying who approved it; a new
// file is a Write; each turn ends with its answer; a long command that
// wraps on screen is reported exactly; a two-turn chat keeps its memory;
// two opencode or Kilo TUIs at once in one workspace each read their own
// session.
func TestLiveAgentsTUI(t *testing.T) {
	live(t)
	yes, no := true, false
	runs := []agentRun{
		{"approve", "default", &yes, true},
		{"deny", "default", &no, false},
		{"auto", "auto", nil, true},
	}
	for ai, agent := range agents {
		n := len(agents)
		for ri, ar := range runs {
			t.Run(agent+"/"+ar.name, func(t *testing.T) {
				cell(t, ai, n, ri, 7)
				cliPath(t, agent)
				r := newHome(t, agent).run(t, agentScript(agent), agentGUI(t, ar),
					"--mode", "pty", "--permission-mode", ar.perm, "--prompt", "make the file")
				checkAgentTUIRun(t, r, ar, agent)
			})
		}
		t.Run(agent+"/edit", func(t *testing.T) {
			cell(t, ai, n, 3, 7)
			cliPath(t, agent)
			testAgentTUIEdit(t, newHome(t, agent), agent)
		})
		if agent != "qwen" { // Qwen's TUI takes our session id
			t.Run(agent+"/two-at-once", func(t *testing.T) {
				// Kilo is opencode's fork, claimed the same way: the short
				// suite runs this on one of them (make stress runs twins
				// twenty times).
				cell(t, ai, n, 7, 8)
				cliPath(t, agent)
				testAgentTUITwoAtOnce(t, newHome(t, agent), agent)
			})
		}
		for pi, perm := range []string{"default", "auto"} {
			t.Run(agent+"/long/"+perm, func(t *testing.T) {
				cell(t, ai, n, 4+pi, 7)
				cliPath(t, agent)
				testAgentTUILong(t, newHome(t, agent), agent, perm)
			})
		}
		// Qwen's TUI takes our session id; opencode and Kilo pick their
		// own, found in their session list. Each is --resume'd with it.
		t.Run(agent+"/conversation", func(t *testing.T) {
			cell(t, ai, n, 6, 7)
			cliPath(t, agent)
			testAgentConversation(t, newHome(t, agent), agent, "--mode", "pty")
		})
	}
}

// testAgentTUILong: a command longer than the screen is wide, with
// hyphens where the TUI may wrap it, is reported exactly as it ran (the
// transcript's, not the screen's rows joined), asked about or (auto) run
// unasked.
func testAgentTUILong(t *testing.T, h *home, agent, perm string) {
	cmd := "printf '%s\\n' 'a-b' && echo " + strings.Repeat("wrap-me-at-any-column ", 14) + "&& echo done-done"
	script := fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Long.", ToolCalls: []fakemodel.ToolCall{agentShell(agent, cmd)}}, {Text: "Done."}}}
	r := h.run(t, script, gui{answer: func(int) bool { return true }}, "--mode", "pty", "--permission-mode", perm, "--prompt", "run it")
	if len(r.uses) != 1 || r.uses[0].Input["command"] != cmd {
		t.Fatalf("tool_uses %+v: want one Bash with the exact command %q", r.uses, cmd)
	}
	if res := r.results[r.uses[0].ID]; res.IsError || !strings.Contains(res.Content, "done-done") {
		t.Errorf("tool_result %+v: want its output", res)
	}
	if by, _ := r.uses[0].Input["approved_by"].(string); perm == "auto" && by == "" {
		t.Errorf("tool_use input %v: want approved_by", r.uses[0].Input)
	}
	if f := r.final(); f == nil || f["is_error"] == true || !strings.Contains(f.str("result"), "Done.") {
		t.Errorf("result %v: want success with the answer", f)
	}
}

// testAgentTUITwoAtOnce: two TUIs started at once in one workspace share
// the program's database, so each lists both sessions; each run reads its
// own (its call, its answer, its session id), not the one created first.
func testAgentTUITwoAtOnce(t *testing.T, h *home, agent string) {
	words := []string{"alpha", "beta"}
	h.srv.SetScript(fakemodel.Script{Side: func(r fakemodel.Request) (fakemodel.Reply, bool) {
		for _, w := range words {
			switch {
			case r.Contains("made-" + w): // the call is in the history: answer
				return fakemodel.Reply{Text: "Done with " + w + "."}, true
			case r.Contains("write " + w):
				return fakemodel.Reply{Text: "On it.", ToolCalls: []fakemodel.ToolCall{agentShell(agent, "echo made-"+w+" > "+w+".txt")}}, true
			}
		}
		return fakemodel.Reply{Text: "which word?"}, true
	}})
	// A home where the agent ran before, as a person's is: two TUIs of a
	// fresh install at once both start its first-run storage migration,
	// and under load one of them drew nothing for two minutes (CI run 6:
	// Kilo, no terminal query even), inside the agent, before any session
	// to claim. The claim is what this tests.
	if out, code := runByHand(t, h, []string{cliPath(t, agent), "session", "list", "--format", "json"}); code != 0 {
		t.Fatalf("%s session list (warming its home): exit %d\n%s", agent, code, out)
	}
	h.together = true
	runs := make([]*run, len(words))
	var wg sync.WaitGroup
	for i, w := range words {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i] = h.runAsSet(t, gui{}, "--mode", "pty", "--permission-mode", "auto", "--prompt", "write "+w)
		}()
	}
	wg.Wait()
	noLeftovers(t, h.sb.Home)
	ids := map[string]bool{}
	for i, w := range words {
		r := runs[i]
		if r == nil {
			continue // it could not start, and said so
		}
		// Two starts at once load the machine: Kilo may ask its own
		// question first ("It is taking a long time to initialize the
		// snapshot system…"), reported as what it is, beside the call.
		calls := programQuestionsAside(t, r.uses)
		if len(calls) != 1 || !strings.Contains(fmt.Sprint(calls[0].Input["command"]), "made-"+w) {
			t.Errorf("run %q: tool_uses %+v, want its own call, echo made-%s", w, r.uses, w)
		}
		if f := r.final(); f == nil || f["is_error"] == true || !strings.Contains(f.str("result"), "Done with "+w) {
			t.Errorf("run %q: result %v, want its own answer", w, f)
		}
		ids[r.initSession()] = true
	}
	if len(ids) != len(words) {
		t.Errorf("session ids %v: want one each", ids)
	}
}

// programQuestionsAside returns the uses that are calls, logging each
// question the program asked of its own (an AskUserQuestion).
func programQuestionsAside(t *testing.T, uses []use) []use {
	t.Helper()
	var calls []use
	for _, u := range uses {
		if u.Name == "AskUserQuestion" {
			t.Logf("the program's own question: %v", u.Input["description"])
			continue
		}
		calls = append(calls, u)
	}
	return calls
}

func checkAgentTUIRun(t *testing.T, r *run, ar agentRun, agent string) {
	t.Helper()
	u, res, ok, f, denials := commandRun(t, r, ar)
	if ar.ran {
		for _, want := range tuiOutput[agent] {
			if !ok || res.IsError || !strings.Contains(res.Content, want) {
				t.Errorf("tool_result %+v (reported %v): want the command's output, with %q", res, ok, want)
			}
		}
		if f["is_error"] == true || len(denials) != 0 || !strings.Contains(f.str("result"), "All done.") {
			t.Errorf("result %v: want success with the answer", f)
		}
	} else {
		if !ok || !res.IsError {
			t.Errorf("tool_result %+v (reported %v): want the denial (is_error)", res, ok)
		}
		if len(denials) != 1 || f["is_error"] == true && !strings.Contains(f.str("result"), "denied") {
			t.Errorf("result %v: want the denied call in permission_denials", f)
		}
		if reqs := r.srv.AgentRequests(); agent != "qwen" && len(reqs) != 1 {
			// opencode and Kilo end the turn at a rejection.
			t.Errorf("%d model requests, want 1: the turn goes on after the rejection", len(reqs))
		}
	}
	if ar.perm == "auto" {
		if r.asked != 0 {
			t.Errorf("the GUI was asked %d times in auto mode", r.asked)
		}
		// Each runs it in its own allow-all (Qwen's yolo mode, opencode's
		// and Kilo's permission variable), approved_by from its transcript.
		by, _ := u.Input["approved_by"].(string)
		if agent == "qwen" && !strings.Contains(by, "yolo") || agent != "qwen" && !strings.Contains(by, `_PERMISSION {"bash":"allow"`) {
			t.Errorf("tool_use input %v: want it said who let it run", u.Input)
		}
	}
	if ar.approve != nil && r.asked != 1 {
		t.Errorf("the GUI was asked %d times, want once", r.asked)
	}
}

// testAgentTUIEdit: the agent writes a new file; it is a Write of that
// file, asked about, and written once approved: the exact call, from the
// agent's transcript (opencode and Kilo draw the file's name relative to the
// workspace, and its text as diff rows).
func testAgentTUIEdit(t *testing.T, h *home, agent string) {
	path := filepath.Join(h.sb.Workspace, "notes.md")
	script := fakemodel.Script{Replies: []fakemodel.Reply{
		{Text: "Writing it.", ToolCalls: []fakemodel.ToolCall{agentWrite(agent, path, "# Notes\nhello\n")}},
		{Text: "Written."},
	}}
	r := h.run(t, script, gui{answer: func(int) bool { return true }}, "--mode", "pty", "--prompt", "write the notes")
	if len(r.uses) != 1 || r.uses[0].Name != "Write" {
		t.Fatalf("tool_uses %+v: want one Write", r.uses)
	}
	in := r.uses[0].Input
	want := map[string]any{"file_path": path, "content": "# Notes\nhello\n"}
	for k, v := range want {
		if in[k] != v {
			t.Errorf("Write %s = %v, want %v", k, in[k], v)
		}
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
	if f := r.final(); f == nil || f["is_error"] == true || !strings.Contains(f.str("result"), "Written.") {
		t.Errorf("result %v: want success with the answer", f)
	}
}

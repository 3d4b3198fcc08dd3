package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// stressRun is one of the sessions that run at once: an agent, the mode it
// is driven in, and how its model asks to run a shell command.
type stressRun struct {
	agent, mode string
	call        func(command string) fakemodel.ToolCall
}

// TestLiveStress runs, as a person with several chats open on a busy laptop
// does: four sessions of different agents at once, two through their TUIs
// and two through their structured modes, on a machine whose every core a
// hog keeps busy. Each turn must be right: its one question asked once,
// its own command run once (no key lost or doubled), its own answer, its
// own session. Then two TUIs of the same agent in one workspace, E2E_TWINS
// times in a row (default 2; make stress runs 20), each reading its own
// session through the path that claims it.
//
// It runs only with E2E_STRESS=1 (make stress), not in make e2e: beside the
// suite's own parallel runs a hog would time everything else out.
func TestLiveStress(t *testing.T) {
	if os.Getenv("E2E_STRESS") != "1" {
		t.Skip("E2E_STRESS=1 runs it (make stress)")
	}
	stop := hog(t)
	defer stop()
	t.Run("four-at-once", func(t *testing.T) {
		runs := []stressRun{
			{"claude", "pty", func(c string) fakemodel.ToolCall { return shellCall("claude", c, "mark") }},
			{"gemini", "pty", func(c string) fakemodel.ToolCall { return shellCall("gemini", c, "mark") }},
			{"opencode", "acp", func(c string) fakemodel.ToolCall { return agentShell("opencode", c) }},
			{"qwen", "acp", func(c string) fakemodel.ToolCall { return agentShell("qwen", c) }},
		}
		for _, sr := range runs {
			cliPath(t, sr.agent)
		}
		var wg sync.WaitGroup
		for _, sr := range runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				stressOne(t, sr)
			}()
		}
		wg.Wait()
	})
	for _, agent := range []string{"opencode", "kilo"} {
		t.Run(agent+"/twins", func(t *testing.T) {
			cliPath(t, agent)
			for i := range twins() {
				testAgentTUITwoAtOnce(t, newHome(t, agent), agent)
				if t.Failed() {
					t.Fatalf("mixed up at round %d of %d", i+1, twins())
				}
			}
		})
	}
}

// stressOne is one session of the four: approved, its command appends its
// own mark once.
func stressOne(t *testing.T, sr stressRun) {
	mark := "mark-" + sr.agent
	command := "echo " + mark + " >> marks.txt && echo done-" + sr.agent
	final := "Finished " + sr.agent + "."
	script := fakemodel.Script{Replies: []fakemodel.Reply{
		{Text: "Marking.", ToolCalls: []fakemodel.ToolCall{sr.call(command)}},
		{Text: final},
	}}
	h := newHome(t, sr.agent)
	h.together = true // the others are running: leftovers are looked for at the end
	r := h.run(t, script, gui{answer: func(int) bool { return true }}, "--mode", sr.mode, "--prompt", "mark it")
	defer noLeftovers(t, h.sb.Home)
	where := sr.agent + " (" + sr.mode + ")"
	if r.asked != 1 {
		t.Errorf("%s: asked %d times, want once", where, r.asked)
	}
	if len(r.uses) != 1 || fmt.Sprint(r.uses[0].Input["command"]) != command {
		t.Errorf("%s: tool_uses %+v, want one with %q", where, r.uses, command)
	} else if res := r.results[r.uses[0].ID]; res.IsError || !strings.Contains(res.Content, "done-"+sr.agent) {
		t.Errorf("%s: tool_result %+v, want its own output", where, res)
	}
	b, err := os.ReadFile(filepath.Join(h.sb.Workspace, "marks.txt"))
	if err != nil || string(b) != mark+"\n" {
		t.Errorf("%s: marks.txt %q (%v), want its mark once", where, b, err)
	}
	if f := r.final(); f == nil || f["is_error"] == true || count(r.texts(), final) != 1 {
		t.Errorf("%s: result %v, texts %q: want success and its own answer once", where, f, r.texts())
	}
	if r.initSession() == "" {
		t.Errorf("%s: no session id in init", where)
	}
}

// twins is how many rounds of two TUIs in one workspace run (E2E_TWINS).
func twins() int {
	if n, err := strconv.Atoi(os.Getenv("E2E_TWINS")); err == nil && n > 0 {
		return n
	}
	return 2
}

// hog keeps every core busy until stop: the sessions run as on a laptop
// building something beside them.
func hog(t *testing.T) (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; !done.Load(); n++ {
				_ = n * n
			}
		}()
	}
	t.Logf("a CPU hog on %d cores", runtime.NumCPU())
	return func() { done.Store(true); wg.Wait() }
}

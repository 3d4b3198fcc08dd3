package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// Qwen Code's managed memory extraction is a side request that offers
// run_shell_command, made once a turn's first model reply is in (on by
// default; the sandbox turns it off, these tests back on). Its calls run
// in Qwen's own yolo mode, never asked about, never over ACP or in the
// stream-json: yume-cli reports them from Qwen's chat record.

// sideMarker opens the system prompt of the memory extraction request.
const sideMarker = "managed memory extraction subagent"

// sideCommand is read-only, so Qwen's own rule lets its memory agent run it.
const sideCommand = "cat secret.txt"

// sideScript: replies answers the turn; the memory extraction request
// asks for sideCommand, then saves nothing.
func sideScript(replies ...fakemodel.Reply) fakemodel.Script {
	return fakemodel.Script{
		Replies: replies,
		Side: func(r fakemodel.Request) (fakemodel.Reply, bool) {
			switch {
			case !r.Contains(sideMarker):
				return fakemodel.Reply{}, false
			case r.Contains("side_call_1"):
				return fakemodel.Reply{Text: "Nothing to save."}, true
			}
			return fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{ID: "side_call_1", Name: "run_shell_command",
				Args: map[string]string{"command": sideCommand, "description": "look"}}}}, true
		},
	}
}

// sideHome is a qwen sandbox with its memory extraction on.
func sideHome(t *testing.T) *home {
	t.Helper()
	cliPath(t, "qwen")
	h := newHome(t, "qwen")
	p := filepath.Join(h.sb.Home, ".qwen", "settings.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var settings map[string]any
	if err := json.Unmarshal(b, &settings); err != nil {
		t.Fatal(err)
	}
	memory, _ := settings["memory"].(map[string]any)
	if memory["enableManagedAutoMemory"] != false {
		t.Fatalf("%s does not turn the memory extraction off: %s", p, b)
	}
	memory["enableManagedAutoMemory"] = true
	if b, err = json.Marshal(settings); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.sb.Workspace, "secret.txt"), []byte("side-secret-42\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return h
}

// sideRan reports whether the side call ran: the memory agent's second
// request carries its output (or, denied, its call only).
func sideRan(h *home) (ran, denied bool) {
	for _, r := range h.srv.SideRequests() {
		if r.Contains(`"tool_call_id":"side_call_1"`) {
			return r.Contains("side-secret-42"), !r.Contains("side-secret-42")
		}
	}
	return false, false
}

// sideUse is the reported side call and its result.
func sideUse(t *testing.T, uses []use, results map[string]result) (use, result, bool) {
	t.Helper()
	for _, u := range uses {
		if u.Name == "Bash" && u.Input["command"] == sideCommand {
			res, ok := results[u.ID]
			if !ok {
				t.Errorf("no tool_result for the side call %+v", u)
			}
			return u, res, true
		}
	}
	return use{}, result{}, false
}

// TestLiveQwenSide: a call Qwen's memory extraction ran is reported (a
// Bash tool_use whose approved_by names the side request, and a
// tool_result), and one Qwen denied is an error. Over ACP the extraction
// starts after the turn's answer and Qwen quits at stdin's end without
// waiting for it: the call may not run, or run after yume-cli read the
// record for the turn's result (then it goes unreported: a known gap);
// a call reported there must have run, and says who approved it.
func TestLiveQwenSide(t *testing.T) {
	for _, c := range []struct{ name, mode, perm string }{
		{"acp/default", "acp", "default"},
		{"acp/auto", "acp", "auto"},
		{"json/auto", "json", "auto"},
		{"json/deny", "json", "deny"}, // headless default mode: Qwen's rule denies it
	} {
		t.Run(c.name, func(t *testing.T) {
			h := sideHome(t)
			replies := []fakemodel.Reply{{Text: "All done."}}
			if c.mode == "acp" {
				replies = []fakemodel.Reply{
					{Text: "Running it.", ToolCalls: []fakemodel.ToolCall{agentShell("qwen", oneCommand)}},
					{Text: "All done."},
				}
			}
			r := h.run(t, sideScript(replies...), gui{answer: func(int) bool { return true }},
				"--mode", c.mode, "--permission-mode", c.perm, "--prompt", "make the file")
			ran, denied := sideRan(h)
			if c.mode == "json" && ran == (c.perm == "deny") {
				// Headless Qwen waits for its memory agent before its result.
				t.Errorf("the side call ran = %v (denied %v): want it run in auto mode, denied in deny mode", ran, denied)
			}
			u, res, reported := sideUse(t, r.uses, r.results)
			by, _ := u.Input["approved_by"].(string)
			switch {
			case c.mode == "acp" && !reported && (ran || denied):
				// Over ACP the extraction runs after the turn's answer, and
				// may run after yume-cli read the record for the turn's
				// result (Qwen quits at stdin's end, so the window is
				// short): a known gap, kept in sight here, not hidden.
				t.Logf("the side call ran %v, denied %v after the turn's record was read: not reported (known gap over ACP)", ran, denied)
			case reported && !(ran || denied), c.mode != "acp" && reported != (ran || denied):
				t.Errorf("the side call ran %v, denied %v, reported %v (tool_uses %+v)", ran, denied, reported, r.uses)
			case ran && (res.IsError || !strings.Contains(by, "managed-auto-memory-extractor")):
				t.Errorf("side call %+v, result %+v: want it reported run, approved_by naming the side request", u.Input, res)
			case denied && (!res.IsError || !strings.Contains(res.Content, "denied") || by != ""):
				t.Errorf("side call %+v, result %+v: want Qwen's denial (is_error)", u.Input, res)
			}
			if f := r.final(); f == nil || f["is_error"] == true || !strings.Contains(f.str("result"), "All done.") {
				t.Errorf("result %v", f)
			}
			t.Logf("%s: side call ran %v, denied %v: %v %+v, %v", c.name, ran, denied, u.Input, res, r.took.Round(time.Millisecond))
		})
	}
}

// TestLiveQwenSidePTY: Qwen's TUI stays open between the turns of a
// persistent session, and its memory extraction runs its call there,
// after turn 1's result: the next turn reports it first.
func TestLiveQwenSidePTY(t *testing.T) {
	for _, perm := range []string{"default", "auto"} {
		t.Run(perm, func(t *testing.T) {
			h := sideHome(t)
			h.srv.SetScript(sideScript(fakemodel.Reply{Text: "Noted."}, fakemodel.Reply{Text: "Still here."}))
			s := startSession(t, h, "start", "--session-id", "side-"+perm, "--mode", "pty", "--permission-mode", perm)
			s.send(map[string]any{"type": "user", "content": "remember that I like tea"})
			if r := s.waitFor(t, "turn 1's result", isResult); r["is_error"] == true {
				t.Fatalf("turn 1: %v", r)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if _, err := h.srv.WaitSideRequests(ctx, 2); err != nil {
				t.Fatalf("the memory extraction did not run its call between the turns: %v", err)
			}
			if ran, _ := sideRan(h); !ran {
				t.Fatal("the side call did not run")
			}
			from := len(s.events)
			s.send(map[string]any{"type": "user", "content": "are you there?"})
			if r := s.waitFor(t, "turn 2's result", isResult); r["is_error"] == true {
				t.Errorf("turn 2: %v", r)
			}
			if code := s.close(t); code != 0 {
				t.Errorf("exit %d", code)
			}
			var turn2 run
			turn2.results = map[string]result{}
			for _, e := range s.events[from:] {
				turn2.collect(e)
			}
			u, res, ok := sideUse(t, turn2.uses, turn2.results)
			if by, _ := u.Input["approved_by"].(string); !ok || !strings.Contains(by, "managed-auto-memory-extractor") || res.IsError {
				t.Errorf("turn 2's tool_uses %+v: want the side call %q reported first, approved_by naming the side request, and its result", turn2.uses, sideCommand)
			}
			t.Logf("side call %v, result %+v", u.Input, res)
		})
	}
}

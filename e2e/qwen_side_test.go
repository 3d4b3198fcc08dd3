package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// Qwen Code's managed memory extraction is a side request that offers
// run_shell_command, made once a turn's first model reply is in (on by
// default; the sandbox turns it off, these tests back on). Its calls run
// in Qwen's own yolo mode, never asked about, never over ACP or in the
// stream-json. yume-cli lets them run only in headless auto mode, where
// Qwen waits for them and yume-cli reports their calls from its
// transcript; everywhere else it turns them off for the run.

// sideMarker opens the system prompt of the memory extraction request.
const sideMarker = "managed memory extraction subagent"

// sideCommand is read-only, so Qwen's own rule lets its memory agent run it.
const sideCommand = "cat secret.txt"

// sideCalls numbers the side calls of every script, so that no two runs
// share a call id.
var sideCalls atomic.Int64

// sideScript: replies answers the turn; each memory extraction request
// asks for sideCommand (a call id of its own), then saves nothing.
func sideScript(replies ...fakemodel.Reply) fakemodel.Script {
	return fakemodel.Script{
		Replies: replies,
		Side: func(r fakemodel.Request) (fakemodel.Reply, bool) {
			switch {
			case !r.Contains(sideMarker):
				return fakemodel.Reply{}, false
			case r.Contains(`"tool_call_id":"side_call_`):
				return fakemodel.Reply{Text: "Nothing to save."}, true
			}
			id := fmt.Sprintf("side_call_%d", sideCalls.Add(1))
			return fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{ID: id, Name: "run_shell_command",
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
		if r.Contains(`"tool_call_id":"side_call_`) {
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

// memoryPrompt opens the part of Qwen's system prompt it adds while its
// memory agents are on: the turn's own request says whether they are.
const memoryPrompt = "# auto memory"

// TestLiveQwenSide: Qwen's memory agents run tools without asking, so
// yume-cli lets them run only where it reports every call they make:
// headless auto mode, where Qwen waits for them before its result (the
// call is reported, approved_by naming the side request, and a resumed
// run reports only its own). Everywhere else they are off for the run,
// whatever the user's settings say: in default and deny modes (they never
// ask), and over ACP, named or as a command after --, where Qwen exits at
// stdin's end and would cut them off, a call run and never logged.
func TestLiveQwenSide(t *testing.T) {
	live(t)
	yolo := []string{"--", "qwen", "--acp", "--approval-mode", "yolo"}
	ask := []string{"--", "qwen", "--acp", "--approval-mode", "default"}
	for _, c := range []struct {
		name, mode, perm string
		command          []string // after --, with --provider acp
		on               bool
		keep             bool // YUME_SIDE_AGENTS=keep: the user's settings (on) stand
	}{
		{name: "acp/default", mode: "acp", perm: "default"},
		{name: "acp/auto", mode: "acp", perm: "auto"},
		{name: "acp-command/default", perm: "default", command: ask},
		{name: "acp-command/auto", perm: "auto", command: yolo},
		{name: "json/deny", mode: "json", perm: "deny"},
		{name: "json/auto", mode: "json", perm: "auto", on: true},
		{name: "acp/default/keep", mode: "acp", perm: "default", keep: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := sideHome(t)
			if c.keep {
				h.sb.Env = append(h.sb.Env, "YUME_SIDE_AGENTS=keep")
			}
			flags := []string{"--permission-mode", c.perm, "--prompt", "make the file"}
			if c.command != nil {
				h.provider = "acp"
				flags = append(flags, c.command...)
			} else {
				flags = append([]string{"--mode", c.mode}, flags...)
			}
			replies := []fakemodel.Reply{{Text: "All done."}}
			if c.mode != "json" {
				replies = []fakemodel.Reply{
					{Text: "Running it.", ToolCalls: []fakemodel.ToolCall{agentShell("qwen", oneCommand)}},
					{Text: "All done."},
				}
			}
			r := h.run(t, sideScript(replies...), gui{answer: func(int) bool { return true }}, flags...)
			if f := r.final(); f == nil || f["is_error"] == true || !strings.Contains(f.str("result"), "All done.") {
				t.Fatalf("result %v\nstderr: %s", f, r.stderr)
			}
			agent := h.srv.AgentRequests()
			if len(agent) == 0 || agent[0].Contains(memoryPrompt) != (c.on || c.keep) {
				t.Fatalf("Qwen's memory agents on = %v in its first request (%d requests), want %v", len(agent) > 0 && agent[0].Contains(memoryPrompt), len(agent), c.on || c.keep)
			}
			if c.keep {
				// Over ACP the extraction may or may not finish before Qwen
				// exits: a call reported must have run, and say who ran it.
				if u, res, ok := sideUse(t, r.uses, r.results); ok {
					if ran, _ := sideRan(h); !ran || res.IsError || !strings.Contains(fmt.Sprint(u.Input["approved_by"]), "managed-auto-memory-extractor") {
						t.Errorf("kept: side call %+v, result %+v, ran %v", u.Input, res, ran)
					}
				}
				return
			}
			ran, _ := sideRan(h)
			u, res, reported := sideUse(t, r.uses, r.results)
			by, _ := u.Input["approved_by"].(string)
			switch {
			case !c.on && (len(h.srv.SideRequests()) > 0 || reported):
				t.Errorf("memory agents off, yet %d side requests, reported %v", len(h.srv.SideRequests()), reported)
			case c.on && (!ran || !reported):
				t.Errorf("the side call ran %v, reported %v (tool_uses %+v): headless Qwen waits for it, so both", ran, reported, r.uses)
			case c.on && (res.IsError || !strings.Contains(by, "managed-auto-memory-extractor")):
				t.Errorf("side call %+v, result %+v: want it reported run, approved_by naming the side request", u.Input, res)
			}
			if !c.on {
				return
			}
			// A resumed run reports its own side call, not the last run's too.
			again := h.run(t, sideScript(fakemodel.Reply{Text: "All done."}), gui{}, append([]string{"--resume", r.initSession()}, flags...)...)
			n := 0
			for _, u := range again.uses {
				if u.Input["command"] == sideCommand {
					n++
				}
			}
			if n != 1 {
				t.Errorf("the resumed run reports %d side calls (tool_uses %+v), want its own one", n, again.uses)
			}
		})
	}
}

// TestLiveQwenSideSystemSettings: yume-cli turns the memory agents off
// through a system settings file of its own, made of the user's: what an
// administrator set there still holds (here the name of the context
// file), and their own "on" does not win over yume-cli's "off".
func TestLiveQwenSideSystemSettings(t *testing.T) {
	live(t)
	h := sideHome(t)
	sys := filepath.Join(h.sb.Home, "system-settings.json")
	settings := `{
  // an administrator's settings, with a comment as Qwen allows
  "context": {"fileName": "TEAM.md"},
  "memory": {"enableManagedAutoMemory": true}
}`
	if err := os.WriteFile(sys, []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.sb.Workspace, "TEAM.md"), []byte("team-rule-77\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.sb.Env = append(h.sb.Env, "QWEN_CODE_SYSTEM_SETTINGS_PATH="+sys)
	r := h.run(t, sideScript(fakemodel.Reply{Text: "All done."}), gui{}, "--mode", "acp", "--permission-mode", "default", "--prompt", "hello")
	if f := r.final(); f == nil || f["is_error"] == true {
		t.Fatalf("result %v\nstderr: %s", f, r.stderr)
	}
	agent := h.srv.AgentRequests()
	switch {
	case len(agent) == 0:
		t.Fatal("no request reached the model")
	case !agent[0].Contains("team-rule-77"):
		t.Error("the user's system settings were lost: their context file is not in Qwen's request")
	case agent[0].Contains(memoryPrompt) || len(h.srv.SideRequests()) > 0:
		t.Errorf("the memory agents are on (%d side requests): the user's system settings won over yume-cli's", len(h.srv.SideRequests()))
	}
}

// TestLiveQwenSidePTY: yume-cli quits Qwen's TUI after a one-shot turn
// and at a session's end, which would cut its memory agents off, so they
// are off in the TUI in every permission mode: no side request is made
// between a persistent session's turns, and none is reported.
func TestLiveQwenSidePTY(t *testing.T) {
	live(t)
	for _, perm := range []string{"default", "auto"} {
		t.Run(perm, func(t *testing.T) {
			h := sideHome(t)
			h.srv.SetScript(sideScript(fakemodel.Reply{Text: "Noted."}, fakemodel.Reply{Text: "Still here."}))
			s := startSession(t, h, "start", "--session-id", "side-"+perm, "--mode", "pty", "--permission-mode", perm)
			s.send(map[string]any{"type": "user", "content": "remember that I like tea"})
			if r := s.waitFor(t, "turn 1's result", isResult); r["is_error"] == true {
				t.Fatalf("turn 1: %v", r)
			}
			s.send(map[string]any{"type": "user", "content": "are you there?"})
			if r := s.waitFor(t, "turn 2's result", isResult); r["is_error"] == true {
				t.Errorf("turn 2: %v", r)
			}
			if code := s.close(t); code != 0 {
				t.Errorf("exit %d", code)
			}
			var all run
			all.results = map[string]result{}
			for _, e := range s.events {
				all.collect(e)
			}
			agent := h.srv.AgentRequests()
			if len(agent) < 2 || agent[0].Contains(memoryPrompt) || agent[1].Contains(memoryPrompt) {
				t.Errorf("Qwen's memory agents are on in its TUI (%d requests)", len(agent))
			}
			if n := len(h.srv.SideRequests()); n > 0 || len(all.uses) > 0 {
				t.Errorf("%d side requests, tool_uses %+v: want none", n, all.uses)
			}
		})
	}
}

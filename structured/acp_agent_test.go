package structured

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/transcript"
)

// fakeAgent is an ACP agent that behaves like opencode (kind "opencode"):
// a shell call announced without its command, which comes with the next
// update; a permission request whose first option is an "always" one; an
// edit shown as a diff. "unasked" runs its call without asking, "auth"
// wants a login, "noload" offers no session/load, "alwaysonly" offers
// no allow-once option, "sudo" runs sudo make install instead of make.
func fakeAgent(kind string, readLine func() map[string]any) int {
	send := func(v map[string]any) {
		v["jsonrpc"] = "2.0"
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
	}
	update := func(u map[string]any) {
		send(map[string]any{"method": "session/update", "params": map[string]any{"sessionId": "s-1", "update": u}})
	}
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	output := func(s string) []any { return []any{map[string]any{"type": "content", "content": text(s)}} }
	options := []any{
		map[string]any{"optionId": "always", "kind": "allow_always", "name": "Always allow"},
		map[string]any{"optionId": "once", "kind": "allow_once", "name": "Allow once"},
		map[string]any{"optionId": "reject", "kind": "reject_once", "name": "Reject"}}
	if kind == "alwaysonly" {
		options = []any{options[0], options[2]}
	}
	// ask sends a permission request and returns the optionId chosen, or
	// "cancelled".
	ask := func(id int, call map[string]any) string {
		send(map[string]any{"id": id, "method": "session/request_permission", "params": map[string]any{"sessionId": "s-1", "toolCall": call,
			"options": options}})
		for {
			a := readLine()
			if a == nil {
				return "cancelled"
			}
			if a["method"] == "session/cancel" {
				continue
			}
			if a["method"] == "session/set_mode" {
				send(map[string]any{"id": a["id"], "result": map[string]any{}})
				update(map[string]any{"sessionUpdate": "current_mode_update", "currentModeId": a["params"].(map[string]any)["modeId"]})
				continue
			}
			if got, _ := a["id"].(float64); a["method"] == nil && int(got) != id {
				update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": text(fmt.Sprintf("PERMISSION ID MISMATCH %v ", a["id"]))})
			}
			o := a["result"].(map[string]any)["outcome"].(map[string]any)
			if o["outcome"] == "cancelled" {
				return "cancelled"
			}
			return o["optionId"].(string)
		}
	}
	cwd, command := "/ws", "make"
	if kind == "sudo" {
		command = "sudo make install"
	}
	// request sends a request of the agent's own (fs/*, terminal/*) and
	// returns its response.
	nextID := 100
	request := func(method string, params map[string]any) map[string]any {
		nextID++
		params["sessionId"] = "s-1"
		send(map[string]any{"id": nextID, "method": method, "params": params})
		for {
			a := readLine()
			if a == nil {
				return map[string]any{"error": "eof"}
			}
			if id, _ := a["id"].(float64); int(id) == nextID && a["method"] == nil {
				return a
			}
		}
	}
	mode, terminal, autoApprove, setType := "", false, true, ""
	for {
		m := readLine()
		if m == nil {
			return 0
		}
		id := m["id"]
		if m["method"] == "initialize" {
			caps, _ := m["params"].(map[string]any)["clientCapabilities"].(map[string]any)
			terminal, _ = caps["terminal"].(bool)
		}
		if p, ok := m["params"].(map[string]any); ok && p["cwd"] != nil {
			cwd = p["cwd"].(string)
		}
		switch m["method"] {
		case "initialize":
			send(map[string]any{"id": id, "result": map[string]any{"protocolVersion": 1,
				"agentCapabilities": map[string]any{"loadSession": kind != "noload"},
				"authMethods":       []any{map[string]any{"id": "x-login", "name": "Login with X", "description": "Run `x auth login` in the terminal"}}}})
		case "session/new", "session/load":
			if kind == "auth" {
				send(map[string]any{"id": id, "error": map[string]any{"code": -32000, "message": "Authentication required"}})
				continue
			}
			res := map[string]any{"sessionId": "s-1"}
			switch kind {
			case "modes-auto", "modes-leave", "client":
				// Claude's adapter's shape: it starts where the agent decides.
				mode = "auto"
				res["modes"] = map[string]any{"currentModeId": "auto", "availableModes": []any{
					map[string]any{"id": "default", "name": "Manual", "description": "Always ask before making changes"},
					map[string]any{"id": "plan", "name": "Plan", "description": "Create a plan before making changes"},
					map[string]any{"id": "auto", "name": "Auto", "description": "The agent handles permission decisions"}}}
			case "cline":
				// Cline's session: plan/act, and an auto-approve switch
				// (here on, to be turned off).
				mode = "act"
				res["modes"] = map[string]any{"currentModeId": "act", "availableModes": []any{
					map[string]any{"id": "plan", "name": "Plan", "description": "Explore the codebase and plan changes without modifying files"},
					map[string]any{"id": "act", "name": "Act", "description": "Make changes to the codebase"}}}
				res["configOptions"] = []any{
					map[string]any{"type": "select", "id": "mode", "name": "Session Mode", "category": "mode", "currentValue": "act", "options": []any{
						map[string]any{"value": "plan", "name": "Plan"}, map[string]any{"value": "act", "name": "Act"}}},
					map[string]any{"type": "boolean", "id": "auto_approve", "name": "Auto-approve tools",
						"description": "Automatically approve all tool calls without asking for permission", "currentValue": true}}
			case "modes-none":
				mode = "yolo"
				res["configOptions"] = []any{map[string]any{"id": "mode", "category": "mode", "type": "select", "currentValue": "yolo", "options": []any{
					map[string]any{"value": "yolo", "name": "YOLO", "description": "Auto-approves all tools"},
					map[string]any{"value": "plan", "name": "Plan", "description": "Plan only"}}}}
			}
			send(map[string]any{"id": id, "result": res})
		case "session/set_mode", "session/set_config_option":
			p := m["params"].(map[string]any)
			mode, _ = p["modeId"].(string)
			if v, ok := p["value"].(string); ok {
				mode = v
			}
			if v, ok := p["value"].(bool); ok && p["configId"] == "auto_approve" {
				autoApprove, setType = v, fmt.Sprint(p["type"])
			}
			send(map[string]any{"id": id, "result": map[string]any{}})
		case "session/prompt":
			if kind == "cline" {
				clineTurn(update, ask, fmt.Sprintf("auto_approve=%v (%s) terminal=%v. ", autoApprove, setType, terminal), autoApprove)
				send(map[string]any{"id": id, "result": map[string]any{"stopReason": "end_turn"}})
				continue
			}
			if kind == "terminal-unasked" || kind == "terminal-hidden" {
				terminalTurn(kind, update, ask, request)
				send(map[string]any{"id": id, "result": map[string]any{"stopReason": "end_turn"}})
				continue
			}
			if kind == "client" {
				clientTurn(update, ask, request, cwd, mode)
				send(map[string]any{"id": id, "result": map[string]any{"stopReason": "end_turn"}})
				continue
			}
			if kind == "modes-leave" {
				// It leaves the mode that asks by itself (as a plan ends).
				update(map[string]any{"sessionUpdate": "current_mode_update", "currentModeId": "auto"})
			}
			if kind == "modes-auto" || kind == "modes-none" || kind == "modes-leave" {
				update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": text("mode=" + mode + ". ")})
				if mode != "default" {
					kind = "unasked" // the agent decides by itself
				}
			}
			update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "bash", "kind": "execute", "status": "pending", "rawInput": map[string]any{"cwd": "/ws"}})
			update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "title": "make", "kind": "execute", "status": "in_progress",
				"rawInput": map[string]any{"command": command, "description": "build", "cwd": "/ws"}})
			answer := "once"
			if kind != "unasked" {
				answer = ask(90, map[string]any{"toolCallId": "c1", "title": "make", "kind": "execute", "rawInput": map[string]any{"command": command}})
			}
			switch answer {
			case "cancelled":
				send(map[string]any{"id": id, "result": map[string]any{"stopReason": "cancelled"}})
				continue
			case "once":
				update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "completed", "content": output("built\n")})
			case "reject":
				update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "failed", "content": output("The user rejected permission to use this specific tool call.")})
			default: // "always": the test fails on this text
				update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": text("ALWAYS ALLOWED")})
			}
			if kind == "opencode" {
				update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c2", "title": "edit", "kind": "edit", "status": "pending", "rawInput": map[string]any{}})
				diff := map[string]any{"type": "diff", "path": cwd + "/a.txt", "oldText": "a\nb\nc\n", "newText": "a\nB\nc\n"}
				if ask(91, map[string]any{"toolCallId": "c2", "title": cwd + "/a.txt", "kind": "edit", "content": []any{diff}}) == "once" {
					update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c2", "status": "completed", "content": output("Edit applied successfully.")})
				}
			}
			update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": text("Done.")})
			send(map[string]any{"id": id, "result": map[string]any{"stopReason": "end_turn"}})
		}
	}
}

// clientTurn is a turn of an agent that uses yume-cli's terminals and
// file system: a command it asked about runs in a terminal (its output
// the call's content); then, without asking, a command of its own, a
// write and a read. What it got back is its answer.
func clientTurn(update func(map[string]any), ask func(int, map[string]any) string,
	request func(string, map[string]any) map[string]any, cwd, mode string) {
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	say := func(s string) { update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": text(s)}) }
	say("mode=" + mode + ". ")
	cmd := "echo one; echo two >&2; exit 3"
	call := map[string]any{"toolCallId": "c1", "title": "Terminal", "kind": "execute", "rawInput": map[string]any{"command": cmd}}
	update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Terminal", "kind": "execute", "status": "pending", "rawInput": map[string]any{"command": cmd}})
	if ask(90, call) == "once" {
		r := request("terminal/create", map[string]any{"command": cmd, "outputByteLimit": 1000})
		tid, _ := r["result"].(map[string]any)["terminalId"].(string)
		update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "in_progress", "content": []any{map[string]any{"type": "terminal", "terminalId": tid}}})
		w := request("terminal/wait_for_exit", map[string]any{"terminalId": tid})
		o := request("terminal/output", map[string]any{"terminalId": tid})
		request("terminal/release", map[string]any{"terminalId": tid})
		update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "completed", "content": []any{map[string]any{"type": "terminal", "terminalId": tid}}})
		say(fmt.Sprintf("exit=%v output=%q. ", w["result"], o["result"].(map[string]any)["output"]))
	}
	// Unasked: a command, one that outlives the turn, a write, a read.
	r := request("terminal/create", map[string]any{"command": "sh", "args": []any{"-c", "echo own > own-ran.txt"}})
	if res, ok := r["result"].(map[string]any); ok {
		request("terminal/wait_for_exit", map[string]any{"terminalId": res["terminalId"]})
	}
	say(fmt.Sprintf("own terminal: %v. ", r["result"] != nil))
	r = request("terminal/create", map[string]any{"command": "sleep 600"})
	say(fmt.Sprintf("long terminal: %v. ", r["result"] != nil))
	r = request("fs/write_text_file", map[string]any{"path": cwd + "/notes.md", "content": "# hi\n"})
	say(fmt.Sprintf("write: %v. ", r["result"] != nil))
	r = request("fs/read_text_file", map[string]any{"path": cwd + "/notes.md", "line": 1, "limit": 1})
	if res, ok := r["result"].(map[string]any); ok {
		say(fmt.Sprintf("read %q. ", res["content"]))
	} else {
		say(fmt.Sprintf("read failed: %v. ", r["error"]))
	}
	// A key: the guard's protected paths are asked about before a read.
	r = request("fs/read_text_file", map[string]any{"path": os.Getenv("HOME") + "/.ssh/id_rsa"})
	say(fmt.Sprintf("key read: %v.", r["result"] != nil))
}

// clineTurn is a turn of Cline's (cline --acp 3.0.65, its frames in
// testdata/acp-frames): each call's first frame is a tool_call_update,
// its permission request (JSON-RPC id 0 first) comes next, its tool_call
// only after the answer and an in_progress update; the output is only in
// rawOutput: an array of {query,result,success}, one per command; a
// rejection a JSON string of {"error":…}.
func clineTurn(update func(map[string]any), ask func(int, map[string]any) string, said string, autoApprove bool) {
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": text(said)})
	calls := []struct {
		id       string
		commands []any
		out      any
	}{
		{"call_fake_2", []any{"echo hello-from-agent > out.txt; ls"}, []any{map[string]any{"query": "echo hello-from-agent > out.txt; ls", "result": "out.txt\n", "success": true}}},
		{"call_fake_4", []any{"echo one > one.txt", "false"}, []any{map[string]any{"query": "echo one > one.txt", "result": "", "success": true},
			map[string]any{"query": "false", "result": "", "error": "Command failed: exit 1", "success": false}}},
	}
	for n, c := range calls {
		title := "run_commands: " + fmt.Sprint(c.commands...)
		call := map[string]any{"toolCallId": c.id, "title": title, "kind": "execute", "status": "pending", "rawInput": map[string]any{"commands": c.commands}}
		first := map[string]any{"sessionUpdate": "tool_call_update"}
		for k, v := range call {
			first[k] = v
		}
		update(first)
		answer := "once"
		if !autoApprove {
			answer = ask(n, call)
		}
		status := "in_progress"
		if answer != "once" {
			status = "failed"
		}
		update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": c.id, "status": status})
		announce := map[string]any{"sessionUpdate": "tool_call"}
		for k, v := range call {
			announce[k] = v
		}
		update(announce)
		end := map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": c.id, "status": "completed", "rawOutput": c.out}
		if n == 1 {
			end["status"] = "failed"
		}
		if answer != "once" {
			end["status"], end["rawOutput"] = "failed", `{"error":"User rejected the tool call -- NOT a tool or system failure. Clarify with user before proceeding."}`
		}
		update(end)
	}
	update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": text("All done.")})
}

// terminalTurn is a turn of an agent that runs its commands in yume-cli's
// terminal. terminal-unasked announces a call it does not ask about and
// runs its command there: one tool_use, the call's, asked about by
// yume-cli. terminal-hidden asks about a call of two commands, runs each
// in a terminal of its own (one as an argv with its shell wrapper) and
// ends the call without showing the terminals or any output: the
// terminals' output is the call's.
func terminalTurn(kind string, update func(map[string]any), ask func(int, map[string]any) string, request func(string, map[string]any) map[string]any) {
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	run := func(params map[string]any) string {
		r := request("terminal/create", params)
		res, ok := r["result"].(map[string]any)
		if !ok {
			return ""
		}
		tid, _ := res["terminalId"].(string)
		request("terminal/wait_for_exit", map[string]any{"terminalId": tid})
		request("terminal/release", map[string]any{"terminalId": tid})
		return tid
	}
	switch kind {
	case "terminal-unasked":
		update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Run", "kind": "execute", "status": "pending", "rawInput": map[string]any{"command": "echo adopted"}})
		tid := run(map[string]any{"command": "echo adopted"})
		if tid == "" {
			update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "failed", "rawOutput": "not run"})
			break
		}
		update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "completed", "content": []any{map[string]any{"type": "terminal", "terminalId": tid}}})
	case "terminal-hidden":
		call := map[string]any{"toolCallId": "c1", "title": "run_commands: echo hidden; echo more", "kind": "execute", "rawInput": map[string]any{"commands": []any{"echo hidden", "echo more"}}}
		update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "title": call["title"], "kind": "execute", "status": "pending", "rawInput": call["rawInput"]})
		if ask(0, call) == "once" {
			run(map[string]any{"command": "echo hidden"})
			run(map[string]any{"command": "/bin/sh", "args": []any{"-c", "echo more"}})
		}
		update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "completed"})
	}
	update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": text("Done.")})
}

// agentRun runs the fake agent kind: as provider with the test binary
// as its program, or (provider "acp") as the command after --.
type agentRun struct {
	provider, kind, perm, resume string
	answer                       *bool               // the GUI's answer to every question; nil: no control channel
	custom                       *providers.Provider // instead of provider's own descriptor
	cwd                          string              // the workspace (made when empty)
}

func (a *agentRun) run(t *testing.T) (string, []byte, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tap := &lineTap{}
	var controls chan emit.Control
	if a.answer != nil {
		controls = make(chan emit.Control, 4)
		defer close(controls)
		tap.gui = func(m map[string]any) { approveWith(*a.answer)(m, controls, cancel) }
	}
	if a.cwd == "" {
		a.cwd = t.TempDir()
	}
	cwd := a.cwd
	p := a.custom
	if p == nil {
		p = prov(a.provider)
	}
	opts := Options{Provider: p, Cwd: cwd, Prompt: "do it", PermissionMode: a.perm, Resume: a.resume,
		Controls: controls, Stderr: &syncWriter{w: &bytes.Buffer{}}, Env: []string{"YUME_FAKE_CLI=acp-agent:" + a.kind, "HOME=" + home}}
	if a.provider == "acp" {
		opts.Command = []string{exe, "--stdio"}
	} else {
		opts.Bin = exe
	}
	err = Run(ctx, opts, emit.NewWriter(tap, emit.Config{SessionID: "sess-fake"}))
	out := tap.bytes()
	for _, e := range emittest.Validate(out) {
		t.Errorf("conformance: %v", e)
	}
	assertNoLeftovers(t, home)
	return strings.ReplaceAll(runSummary(t, out), cwd, "$CWD"), bytes.ReplaceAll(out, []byte(cwd), []byte("$CWD")), err
}

func TestACPAgents(t *testing.T) {
	yes, no := true, false
	exe, _ := os.Executable()
	agent := exe[strings.LastIndexByte(exe, '/')+1:]
	cases := []struct {
		name string
		run  agentRun
		want string
		in   map[string]string // a tool_use id -> its input as JSON
	}{
		{"the command comes with the first update; allow picks allow_once; a diff is an Edit of the lines that changed",
			agentRun{provider: "acp", kind: "opencode", perm: "default", answer: &yes},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | can_use_tool:c1 | result:c1:ok | use:c2:Edit | can_use_tool:c2 | result:c2:ok | text:Done. | end:success",
			map[string]string{"c1": `{"command":"make","description":"build"}`, "c2": `{"file_path":"$CWD/a.txt","new_string":"B\n","old_string":"b\n"}`}},
		{"deny picks reject_once", agentRun{provider: "acp", kind: "opencode", perm: "default", answer: &no},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | can_use_tool:c1 | result:c1:err | use:c2:Edit | can_use_tool:c2 | result:c2:err | text:Done. | end:success+denials", nil},
		{"an agent that offers only \"always\": not picked, the call denied", agentRun{provider: "acp", kind: "alwaysonly", perm: "default", answer: &yes},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | can_use_tool:c1 | result:c1:err | text:Done. | end:success+denials", nil},
		{"deny mode answers without asking", agentRun{provider: "opencode", kind: "opencode", perm: "deny"},
			"notice:yume-cli: opencode 9.9.9 in acp mode | use:c1:Bash | notice:denied (permission mode deny): make | result:c1:err | use:c2:Edit | notice:denied (permission mode deny): $CWD/a.txt | result:c2:err | text:Done. | end:success+denials", nil},
		{"a call the agent runs unasked in auto mode says who let it", agentRun{provider: "opencode", kind: "unasked", perm: "auto"},
			"notice:yume-cli: opencode 9.9.9 in acp mode | use:c1:Bash | result:c1:ok | text:Done. | end:success",
			map[string]string{"c1": `{"approved_by":"OPENCODE_PERMISSION {\"bash\":\"allow\",\"edit\":\"allow\"}","command":"make","description":"build"}`}},
		{"any ACP agent that runs a call without asking: reported at its end, saying so", agentRun{provider: "acp", kind: "unasked", perm: "auto"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | result:c1:ok | text:Done. | end:success",
			map[string]string{"c1": `{"approved_by":"` + agent + `, without asking","command":"make","description":"build"}`}},
		{"the same in default mode", agentRun{provider: "acp", kind: "unasked", perm: "default"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | result:c1:ok | text:Done. | end:success",
			map[string]string{"c1": `{"approved_by":"` + agent + `, without asking","command":"make","description":"build"}`}},
		{"auth_required: one error result saying how to log in", agentRun{provider: "acp", kind: "auth", perm: "default"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | error:" + agent + " needs you to log in (Authentication required): Run `x auth login` in the terminal, then try again | end:error_during_execution", nil},
		{"auth_required, a named agent: its own login", agentRun{provider: "kilo", kind: "auth", perm: "default"},
			"notice:yume-cli: kilo 9.9.9 in acp mode | error:kilo needs you to log in (Authentication required): run `kilo auth login`, or set your model provider's API key (e.g. ANTHROPIC_API_KEY), then try again | end:error_during_execution", nil},
		{"resume where the agent offers no session/load", agentRun{provider: "acp", kind: "noload", perm: "default", resume: "s-0"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | error:" + agent + " cannot resume sessions (its ACP capabilities offer no loadSession): start a new conversation without --resume | end:error_during_execution", nil},
		{"no control channel: the guard answers, and each tool_use says so", agentRun{provider: "acp", kind: "opencode", perm: "default"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | notice:approved by yume-cli's guard (no approval channel): make | result:c1:ok | use:c2:Edit | notice:approved by yume-cli's guard (no approval channel): $CWD/a.txt | result:c2:ok | text:Done. | end:success",
			map[string]string{"c1": `{"approved_by":"yume-cli guard: no approval channel","command":"make","description":"build"}`,
				"c2": `{"approved_by":"yume-cli guard: no approval channel","file_path":"$CWD/a.txt","new_string":"B\n","old_string":"b\n"}`}},
		{"no control channel: the guard blocks sudo, with a system error", agentRun{provider: "acp", kind: "sudo", perm: "default"},
			"notice:yume-cli: " + exe + " --stdio in acp mode | use:c1:Bash | warning:dangerous command (runs a command as root (sudo)): sudo make install | error:yum…(222 bytes)…lets it run. | result:c1:err | text:Done. | end:success+denials",
			map[string]string{"c1": `{"approved_by":"yume-cli guard: no approval channel","command":"sudo make install","dangerous":"runs a command as root (sudo)","description":"build"}`}},
		{"resume with session/load", agentRun{provider: "qwen", kind: "unasked", perm: "default", resume: "s-1"},
			"notice:yume-cli: qwen 9.9.9 in acp mode | use:c1:Bash | result:c1:ok | text:Done. | end:success", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, out, err := c.run.run(t)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if strings.Contains(string(out), "ALWAYS") {
				t.Error("yume-cli picked an \"always\" option")
			}
			for id, want := range c.in {
				if in := toolInput(t, out, id); in != want {
					t.Errorf("tool_use %s input %s, want %s", id, in, want)
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s", out)
			}
		})
	}
}

// toolInput is the input of tool_use id in out, as JSON.
func toolInput(t *testing.T, out []byte, id string) string {
	for _, e := range events(t, out) {
		msg, _ := e["message"].(map[string]any)
		blocks, _ := msg["content"].([]any)
		for _, b := range blocks {
			if m, _ := b.(map[string]any); m["type"] == "tool_use" && m["id"] == id {
				in, _ := json.Marshal(m["input"])
				return string(in)
			}
		}
	}
	return ""
}

// TestACPCallInput: what a tool call's frames say, merged, as Claude's tool.
func TestACPCallInput(t *testing.T) {
	old := "a\nb\nc\n"
	cases := []struct {
		name    string
		updates []string // acpUpdate JSON, in order
		ready   bool
		tool    string // name and input JSON
	}{
		{"opencode bash: announced without its command", []string{`{"kind":"execute","title":"bash","rawInput":{"cwd":"/ws"}}`}, false, `Bash {"command":"bash","description":"command from the agent's title for the call: its input named none"}`},
		{"opencode bash: the first update has it", []string{`{"kind":"execute","title":"bash","rawInput":{"cwd":"/ws"}}`,
			`{"kind":"execute","title":"ls -la","rawInput":{"command":"ls -la","description":"list","cwd":"/ws"}}`}, true, `Bash {"command":"ls -la","description":"list"}`},
		{"qwen shell: empty rawInput", []string{`{"kind":"execute","title":"Shell","rawInput":{}}`}, false, `Bash {"command":"Shell","description":"command from the agent's title for the call: its input named none"}`},
		{"cline run_commands: the commands, never the title", []string{`{"kind":"execute","title":"run_commands: echo a; ls","rawInput":{"commands":["echo a","ls"]}}`},
			true, `Bash {"command":"echo a; ls"}`},
		{"commands as argvs", []string{`{"kind":"execute","rawInput":{"commands":[["git","commit","-m","two words"],["ls"]]}}`}, true, `Bash {"command":"git commit -m 'two words'; ls"}`},
		{"no input: the title, its tool name off, said so", []string{`{"kind":"execute","title":"run_commands: make test"}`}, false, `Bash {"command":"make test","description":"command from the agent's title for the call: its input named none"}`},
		{"the agent's tool name off its title", []string{`{"kind":"execute","name":"mcp__x__Shell","title":"mcp__x__Shell: ls -la"}`}, false, `Bash {"command":"ls -la","description":"command from the agent's title for the call: its input named none"}`},
		{"the model's description kept, the title said", []string{`{"kind":"execute","title":"npm test","rawInput":{"description":"run the tests"}}`}, false,
			`Bash {"command":"npm test","description":"run the tests (command from the agent's title for the call: its input named none)"}`},
		{"cline editor: new_text alone makes the file", []string{`{"kind":"edit","title":"editor: {\"path\":\"/ws/new.txt\",\"...","rawInput":{"path":"/ws/new.txt","new_text":"hello\n"}}`},
			true, `Write {"content":"hello\n","file_path":"/ws/new.txt"}`},
		{"cline editor: old_text and new_text", []string{`{"kind":"edit","rawInput":{"path":"/ws/a.txt","old_text":"a","new_text":"b"}}`},
			true, `Edit {"file_path":"/ws/a.txt","new_string":"b","old_string":"a"}`},
		{"cline run_commands with no kind", []string{`{"title":"run_commands: ls","rawInput":{"commands":["ls"]}}`}, true, `Bash {"command":"ls"}`},
		{"opencode write", []string{`{"kind":"edit","title":"write","rawInput":{}}`, `{"kind":"edit","rawInput":{"filePath":"/ws/n.txt","content":"hi\n"}}`},
			true, `Write {"content":"hi\n","file_path":"/ws/n.txt"}`},
		{"opencode edit: the model's strings win over the diff", []string{`{"kind":"edit","rawInput":{"filePath":"/ws/a.txt","oldString":"b","newString":"B","replaceAll":true}}`,
			`{"kind":"edit","content":[{"type":"diff","path":"/ws/a.txt","oldText":"a\nb\n","newText":"a\nB\n"}]}`},
			true, `Edit {"file_path":"/ws/a.txt","new_string":"B","old_string":"b","replace_all":true}`},
		{"a diff of a new file is a Write", []string{`{"kind":"edit","content":[{"type":"diff","path":"/ws/n.txt","oldText":null,"newText":"x\n"}]}`},
			true, `Write {"content":"x\n","file_path":"/ws/n.txt"}`},
		{"a diff of a change is an Edit of its lines", []string{`{"kind":"edit","content":[{"type":"diff","path":"/ws/a.txt","oldText":` + mustJSONString(old) + `,"newText":"a\nX\nY\nc\n"}]}`},
			true, `Edit {"file_path":"/ws/a.txt","new_string":"X\nY\n","old_string":"b\n"}`},
		{"qwen edit", []string{`{"kind":"edit","rawInput":{"file_path":"/ws/a.txt","old_string":"b","new_string":"c"}}`}, true, `Edit {"file_path":"/ws/a.txt","new_string":"c","old_string":"b"}`},
		{"a read with only a location", []string{`{"kind":"read","title":"read","locations":[{"path":"/ws/a.txt"}]}`}, true, `Read {"file_path":"/ws/a.txt"}`},
		{"a tool with nothing yet", []string{`{"kind":"other","title":"todowrite","rawInput":{}}`}, false, `Tool {"description":"todowrite"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var call acpCall
			for _, u := range c.updates {
				var up acpUpdate
				if err := json.Unmarshal([]byte(u), &up); err != nil {
					t.Fatal(err)
				}
				call.merge(up)
			}
			name, in := call.tool()
			b, _ := json.Marshal(in)
			if got := name + " " + string(b); got != c.tool || call.ready() != c.ready {
				t.Errorf("tool %s ready %v; want %s ready %v", got, call.ready(), c.tool, c.ready)
			}
		})
	}
}

// closingRecord is an agent record with nothing in it that says whether
// it was closed.
type closingRecord struct{ closed atomic.Bool }

func (r *closingRecord) Poll() ([]transcript.Event, error) { return nil, nil }
func (r *closingRecord) Path() string                      { return "" }
func (r *closingRecord) Close() error                      { r.closed.Store(true); return nil }

// TestACPClosesRecord: the agent's own record, read for outputs ACP
// leaves out, is closed when the run ends, so a read in flight (a
// subprocess of opencode's CLI) does not outlive yume-cli.
func TestACPClosesRecord(t *testing.T) {
	p := *prov("opencode")
	tui := *p.TUI
	rec := &closingRecord{}
	tui.SessionLog = func(providers.Launch) transcript.Source { return rec }
	p.TUI = &tui
	ar := agentRun{provider: "opencode", kind: "unasked", perm: "auto", custom: &p}
	got, _, err := ar.run(t)
	if err != nil || !strings.HasSuffix(got, "end:success") {
		t.Fatalf("run %q, %v", got, err)
	}
	if !rec.closed.Load() {
		t.Error("the agent's record was left open at the end of the run")
	}
}

// TestACPModesAndClient: an agent that starts in a mode where it decides
// by itself is switched to the one that asks, so every call is asked
// about; one that offers no such mode is said to (a system error Yume
// shows); an agent that uses yume-cli's terminals and file system gets
// them under the permission policy: a command it asked about runs once,
// its output the call's result; a command or write it did not ask about
// is reported as its own Bash or Write and asked about first; denied, it
// does not happen; the session's end ends every command.
func TestACPModesAndClient(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		name string
		run  agentRun
		want []string // in the summary, in order
		not  []string // nowhere in the summary
		ran  bool     // own-ran.txt and notes.md were made
	}{
		{"starts in auto: switched to the mode that asks, asked, approved", agentRun{provider: "acp", kind: "modes-auto", perm: "default", answer: &yes},
			[]string{"text:mode=default. ", "use:c1:Bash", "can_use_tool:c1", "result:c1:ok", "end:success"}, []string{"without asking", "error:"}, false},
		{"starts in auto: denied, not run", agentRun{provider: "acp", kind: "modes-auto", perm: "default", answer: &no},
			[]string{"text:mode=default. ", "can_use_tool:c1", "result:c1:err", "end:success+denials"}, nil, false},
		{"the guard answers for nobody, in the mode that asks", agentRun{provider: "acp", kind: "modes-auto", perm: "default"},
			[]string{"text:mode=default. ", "use:c1:Bash", "notice:approved by yume-cli's guard (no approval channel): make"}, nil, false},
		{"an agent that leaves the mode that asks is put back, saying so", agentRun{provider: "acp", kind: "modes-leave", perm: "default", answer: &yes},
			[]string{"error:", "text:mode=default. ", "can_use_tool:c1", "result:c1:ok", "end:success"}, nil, false},
		{"no mode asks: said as a system error", agentRun{provider: "acp", kind: "modes-none", perm: "default", answer: &yes},
			[]string{"error:", "text:mode=yolo. "}, nil, false},
		{"terminals and files, approved", agentRun{provider: "acp", kind: "client", perm: "default", answer: &yes},
			[]string{"text:mode=default. ", "use:c1:Bash", "can_use_tool:c1", "result:c1:err", `exit=map[exitCode:3 signal:<nil>] output="one\ntwo\n". `,
				"use:term_2:Bash", "can_use_tool:term_2", "result:term_2:ok", "own terminal: true. ", "use:term_3:Bash", "can_use_tool:term_3", "long terminal: true. ",
				"use:fswrite_1:Write", "can_use_tool:fswrite_1", "result:fswrite_1:ok", "write: true. ", `read "# hi\n". `, "use:fsread_2:Read", "can_use_tool:fsread_2", "result:fsread_2:err", "key read: false.", "result:term_3:err", "end:success"}, nil, true},
		{"terminals and files, denied", agentRun{provider: "acp", kind: "client", perm: "default", answer: &no},
			[]string{"use:c1:Bash", "can_use_tool:c1", "result:c1:err", "use:term_1:Bash", "can_use_tool:term_1", "result:term_1:err",
				"own terminal: false. ", "use:term_2:Bash", "result:term_2:err", "long terminal: false. ", "use:fswrite_1:Write", "result:fswrite_1:err",
				"write: false. ", "read failed", "use:fsread_2:Read", "can_use_tool:fsread_2", "result:fsread_2:err", "key read: false.", "end:success+denials"}, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, out, err := c.run.run(t)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			rest := got
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Errorf("summary lacks %q (in order)\n%s", w, got)
					break
				}
				rest = rest[i+len(w):]
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("summary has %q\n%s", n, got)
				}
			}
			if c.run.kind == "modes-leave" && !strings.Contains(string(out), `switched itself to its session mode Auto (auto), which does not ask before it acts; yume-cli puts it back in Manual (default)`) {
				t.Error("no system error saying the agent left the mode that asks")
			}
			if c.run.kind == "modes-none" && !strings.Contains(string(out), `"subtype":"error","message":"structured.test offers no session mode that asks before it acts (its modes: YOLO (yolo), Plan (plan); now yolo)`) {
				t.Error("no system error saying that no mode asks")
			}
			if c.run.kind == "client" {
				_, errOwn := os.Stat(filepath.Join(c.run.cwd, "own-ran.txt"))
				_, errNotes := os.Stat(filepath.Join(c.run.cwd, "notes.md"))
				if (errOwn == nil) != c.ran || (errNotes == nil) != c.ran {
					t.Errorf("own command ran %v, notes written %v; want %v", errOwn == nil, errNotes == nil, c.ran)
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s", out)
			}
		})
	}
}

// toolResultOf is the content and error flag of tool_use id's result in out.
func toolResultOf(t *testing.T, out []byte, id string) (string, bool, bool) {
	for _, e := range events(t, out) {
		msg, _ := e["message"].(map[string]any)
		blocks, _ := msg["content"].([]any)
		for _, b := range blocks {
			if m, _ := b.(map[string]any); m["type"] == "tool_result" && m["tool_use_id"] == id {
				c, _ := m["content"].(string)
				isErr, _ := m["is_error"].(bool)
				return c, isErr, true
			}
		}
	}
	return "", false, false
}

// TestACPAgentsAnyShape: agents nobody taught yume-cli, run as any ACP
// agent: Cline's order (an update first, the permission request with id
// 0, the tool_call after the answer) gives one tool_use per call, its
// command from rawInput.commands (never the title), its output from
// rawOutput's array, a failed command an error; its auto_approve switch
// is turned off unless the permission mode is auto; initialize offers
// yume-cli's terminal; a call run in yume-cli's terminal has the
// terminal's output, and one the agent did not ask about is asked about
// as itself.
func TestACPAgentsAnyShape(t *testing.T) {
	yes, no := true, false
	type result struct {
		content string
		isErr   bool
	}
	cases := []struct {
		name    string
		run     agentRun
		want    string
		in      map[string]string
		results map[string]result
		texts   []string // in stdout
		not     []string // nowhere in stdout
	}{
		{"cline, allowed", agentRun{provider: "acp", kind: "cline", perm: "default", answer: &yes},
			"use:call_fake_2:Bash | can_use_tool:call_fake_2 | result:call_fake_2:ok | use:call_fake_4:Bash | can_use_tool:call_fake_4 | result:call_fake_4:err | text:All done. | end:success",
			map[string]string{"call_fake_2": `{"command":"echo hello-from-agent \u003e out.txt; ls"}`, "call_fake_4": `{"command":"echo one \u003e one.txt; false"}`},
			map[string]result{"call_fake_2": {"out.txt", false}, "call_fake_4": {"Command failed: exit 1", true}},
			[]string{"auto_approve=false (boolean) terminal=true", "yume-cli turned off structured.test's option Auto-approve tools (auto_approve)"}, []string{"run_commands:", "MISMATCH"}},
		{"cline, denied", agentRun{provider: "acp", kind: "cline", perm: "default", answer: &no},
			"use:call_fake_2:Bash | can_use_tool:call_fake_2 | result:call_fake_2:err | use:call_fake_4:Bash | can_use_tool:call_fake_4 | result:call_fake_4:err | text:All done. | end:success+denials",
			nil, map[string]result{"call_fake_2": {"Denied by the user.", true}}, nil, []string{"MISMATCH"}},
		{"cline in auto mode: its switch left on, its calls run unasked", agentRun{provider: "acp", kind: "cline", perm: "auto"},
			"use:call_fake_2:Bash | result:call_fake_2:ok | use:call_fake_4:Bash | result:call_fake_4:err | text:All done. | end:success",
			map[string]string{"call_fake_2": `{"approved_by":"structured.test, without asking","command":"echo hello-from-agent \u003e out.txt; ls"}`},
			map[string]result{"call_fake_2": {"out.txt", false}}, []string{"auto_approve=true"}, []string{"turned off"}},
		{"a call not asked about, run in yume-cli's terminal: asked about as itself", agentRun{provider: "acp", kind: "terminal-unasked", perm: "default", answer: &yes},
			"notice:yume-cli: $EXE --stdio in acp mode | use:c1:Bash | can_use_tool:c1 | result:c1:ok | text:Done. | end:success",
			map[string]string{"c1": `{"command":"echo adopted"}`}, map[string]result{"c1": {"adopted", false}}, nil, []string{"term_1"}},
		{"the same, denied: not run", agentRun{provider: "acp", kind: "terminal-unasked", perm: "default", answer: &no},
			"notice:yume-cli: $EXE --stdio in acp mode | use:c1:Bash | can_use_tool:c1 | result:c1:err | text:Done. | end:success+denials",
			nil, nil, nil, []string{"term_1"}},
		{"terminals the call's updates never show: their output is the call's", agentRun{provider: "acp", kind: "terminal-hidden", perm: "default", answer: &yes},
			"notice:yume-cli: $EXE --stdio in acp mode | use:c1:Bash | can_use_tool:c1 | result:c1:ok | text:Done. | end:success",
			map[string]string{"c1": `{"command":"echo hidden; echo more"}`}, map[string]result{"c1": {"hidden\nmore", false}}, nil, []string{"term_"}},
	}
	exe, _ := os.Executable()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, out, err := c.run.run(t)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			got = strings.ReplaceAll(got, exe, "$EXE")
			if c.run.kind == "cline" {
				got = got[strings.Index(got, "use:"):]
			}
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			for id, want := range c.in {
				if in := toolInput(t, out, id); in != want {
					t.Errorf("tool_use %s input %s, want %s", id, in, want)
				}
			}
			for id, want := range c.results {
				if content, isErr, ok := toolResultOf(t, out, id); !ok || content != want.content || isErr != want.isErr {
					t.Errorf("tool_result %s: %q error %v (found %v), want %q error %v", id, content, isErr, ok, want.content, want.isErr)
				}
			}
			for _, s := range c.texts {
				if !strings.Contains(string(out), s) {
					t.Errorf("stdout lacks %q", s)
				}
			}
			for _, s := range c.not {
				if strings.Contains(string(out), s) {
					t.Errorf("stdout has %q", s)
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s", out)
			}
		})
	}
}

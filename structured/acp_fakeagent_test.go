package structured

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
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
			if kind == "record-late" || kind == "record-then-wait" {
				recordTurn(kind, update)
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

// recordTurn is a turn of an agent that, like Gemini, sends no output
// for a shell call over ACP, only its end, and records the output in its
// own transcript ($HOME/record) after the end. "record-late" records it
// slowly (a starved agent), then speaks; "record-then-wait" records it at
// once and speaks only once yume-cli has reported the result
// ($HOME/result-seen, made by the test).
func recordTurn(kind string, update func(map[string]any)) {
	text := func(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
	say := func(s string) { update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": text(s)}) }
	home := os.Getenv("HOME")
	update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "echo hi", "kind": "execute", "status": "pending", "rawInput": map[string]any{"command": "echo hi"}})
	update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "completed", "content": []any{}})
	if kind == "record-late" {
		time.Sleep(recordLate) // starved: it records long after the call's end
	}
	if err := os.WriteFile(filepath.Join(home, "record"), []byte("hi-from-the-record\n"), 0o600); err != nil {
		say("RECORD FAILED")
		return
	}
	if kind == "record-then-wait" {
		seen := false
		for deadline := time.Now().Add(10 * time.Second); !seen && time.Now().Before(deadline); {
			_, err := os.Stat(filepath.Join(home, "result-seen"))
			seen = err == nil
			time.Sleep(5 * time.Millisecond) // Polling a file the test makes.
		}
		if !seen {
			say("RESULT NOT SEEN. ")
		}
	}
	say("Done.")
}

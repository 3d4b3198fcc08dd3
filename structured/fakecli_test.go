package structured

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The test binary doubles as a fake provider CLI: with YUME_FAKE_CLI set it
// plays a scenario on stdin/stdout instead of running tests, so Run is
// tested with real processes, pipes and signals but without the real CLIs.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "--help") {
		fmt.Println("fake-cli 9.9.9") // The version probe asks without a scenario.
		os.Exit(0)
	}
	if sc := os.Getenv("YUME_FAKE_CLI"); sc != "" {
		os.Exit(fakeCLI(sc))
	}
	// Probe answers are cached under YUME_HOME: keep them in the test's own.
	home, err := os.MkdirTemp("", "yume-home-")
	if err != nil {
		panic(err)
	}
	os.Setenv("YUME_HOME", home)
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

func fakeCLI(scenario string) int {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println("fake-cli 9.9.9")
		return 0
	}
	if rest, ok := strings.CutPrefix(scenario, "exit:"); ok {
		// "exit:N:WORDS": a CLI that fails as it starts (a flag it does
		// not take, no login): WORDS on stderr ("\n" a line break; "out:"
		// first puts them on stdout), then exit N.
		code, words, _ := strings.Cut(rest, ":")
		out := os.Stderr
		if w, ok := strings.CutPrefix(words, "out:"); ok {
			out, words = os.Stdout, w
		}
		if words != "" {
			fmt.Fprintln(out, strings.ReplaceAll(words, `\n`, "\n"))
		}
		n, _ := strconv.Atoi(code)
		return n
	}
	fmt.Fprintln(os.Stderr, "fake-cli: args", strings.Join(os.Args[1:], " "))
	in := bufio.NewReader(os.Stdin)
	readLine := func() map[string]any {
		line, err := in.ReadString('\n')
		if err != nil {
			return nil
		}
		var m map[string]any
		_ = json.Unmarshal([]byte(line), &m)
		return m
	}
	say := func(s string) { fmt.Println(s) }
	switch {
	case strings.HasPrefix(scenario, "replay:"):
		data, err := os.ReadFile(strings.TrimPrefix(scenario, "replay:"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		os.Stdout.Write(data)
	case scenario == "garbage":
		say(`{"type":"init","session_id":"g1","model":"m"}`)
		say(`this is not json`)
		say(`{"type":"message","role":"assistant","content":"big:` + strings.Repeat("x", 5<<20) + `","delta":true}`)
		say(`{"type":"message","role":"assistant","content":"bad utf8: ` + "\xff\xfe" + `","delta":true}`)
		say(`{"type":"result","status":"success"}`)
	case scenario == "crash":
		say(`{"type":"init","session_id":"g1","model":"m"}`)
		say(`{"type":"message","role":"assistant","content":"working","delta":true}`)
		return 3
	case scenario == "hang":
		say(`{"type":"init","session_id":"g1","model":"m"}`)
		say(`{"type":"tool_use","tool_name":"run_shell_command","tool_id":"t1","parameters":{"command":"sleep 100"}}`)
		select {} // Until the interrupt kills us.
	case strings.HasPrefix(scenario, "claude-relay"):
		if readLine() == nil {
			return 2
		}
		command, _ := json.Marshal(cmp.Or(strings.TrimPrefix(scenario, "claude-relay:"), "make"))
		if scenario == "claude-relay" {
			command = []byte(`"make"`)
		}
		say(`{"type":"system","subtype":"init","session_id":"c-1","tools":["Bash"]}`)
		say(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":` + string(command) + `}}]}}`)
		say(`{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":` + string(command) + `},"tool_use_id":"toolu_1"}}`)
		resp := readLine()
		behavior := ""
		if r, ok := resp["response"].(map[string]any); ok {
			if rr, ok := r["response"].(map[string]any); ok {
				behavior, _ = rr["behavior"].(string)
			}
		}
		if behavior == "allow" {
			say(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"built","is_error":false}]}}`)
			say(`{"type":"assistant","message":{"content":[{"type":"text","text":"Built."}]}}`)
			say(`{"type":"result","subtype":"success","is_error":false,"result":"Built.","usage":{"input_tokens":3,"output_tokens":2},"permission_denials":[]}`)
		} else {
			say(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"denied","is_error":true}]}}`)
			say(`{"type":"assistant","message":{"content":[{"type":"text","text":"Not built."}]}}`)
			say(`{"type":"result","subtype":"success","is_error":false,"result":"Not built.","permission_denials":[{"tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{}}]}`)
		}
		for readLine() != nil { // Claude waits for stdin to close.
		}
	case strings.HasPrefix(scenario, "model-error:"):
		return fakeModelError(strings.TrimPrefix(scenario, "model-error:"))
	case scenario == "acp":
		return fakeACP(readLine)
	case strings.HasPrefix(scenario, "acp-agent:"):
		return fakeAgent(strings.TrimPrefix(scenario, "acp-agent:"), readLine)
	default:
		fmt.Fprintln(os.Stderr, "unknown scenario", scenario)
		return 2
	}
	return 0
}

// fakeACP is a minimal ACP agent: one session, one prompt that asks to run
// a command and reports whether it was allowed.
func fakeACP(readLine func() map[string]any) int {
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
	}
	update := func(u map[string]any) {
		send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": "a-1", "update": u}})
	}
	for {
		m := readLine()
		if m == nil {
			return 0
		}
		switch m["method"] {
		case "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{"loadSession": false}}})
		case "session/new":
			send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": map[string]any{"sessionId": "a-1"}})
		case "session/cancel":
		case "session/prompt":
			update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "Let me run it."}})
			update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "call_1", "title": "make", "kind": "execute", "status": "pending", "rawInput": map[string]any{"command": "make"}})
			send(map[string]any{"jsonrpc": "2.0", "id": 90, "method": "session/request_permission", "params": map[string]any{"sessionId": "a-1",
				"toolCall": map[string]any{"toolCallId": "call_1"}, "options": []any{
					map[string]any{"optionId": "yes", "name": "Allow", "kind": "allow_once"},
					map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"}}}})
			var answer map[string]any
			for answer == nil {
				a := readLine()
				if a == nil {
					return 0
				}
				if a["method"] == "session/cancel" {
					continue
				}
				answer = a
			}
			outcome := answer["result"].(map[string]any)["outcome"].(map[string]any)
			switch {
			case outcome["outcome"] == "cancelled":
				send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": map[string]any{"stopReason": "cancelled"}})
				continue
			case outcome["optionId"] == "yes":
				update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "completed",
					"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "built"}}}})
			default:
				update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "failed"})
			}
			update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "Done."}})
			send(map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": map[string]any{"stopReason": "end_turn", "usage": map[string]any{"inputTokens": 5, "outputTokens": 2}}})
		}
	}
}

func mustJSONString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func itoa(n int) string { return fmt.Sprint(n) }

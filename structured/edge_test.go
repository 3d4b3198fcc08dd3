package structured

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/emit/emittest"
)

// event is one emitted line, decoded loosely for assertions.
type event map[string]any

func events(t *testing.T, out []byte) []event {
	t.Helper()
	var evs []event
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var e event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("bad output line %q: %v", l, err)
		}
		evs = append(evs, e)
	}
	return evs
}

// summary renders the stream as short tokens: text:…, use:id:name,
// result:id:ok|err, deny:id, error:…, notice:…, result:success|error.
func summary(t *testing.T, out []byte) string {
	var parts []string
	for _, e := range events(t, out) {
		switch e["type"] {
		case "assistant":
			for _, b := range e["message"].(map[string]any)["content"].([]any) {
				b := b.(map[string]any)
				if b["type"] == "text" {
					parts = append(parts, "text:"+b["text"].(string))
				} else {
					parts = append(parts, "use:"+b["id"].(string)+":"+b["name"].(string))
				}
			}
		case "user":
			for _, b := range e["message"].(map[string]any)["content"].([]any) {
				b := b.(map[string]any)
				st := "ok"
				if b["is_error"] == true {
					st = "err"
				}
				parts = append(parts, "result:"+b["tool_use_id"].(string)+":"+st)
			}
		case "system":
			switch e["subtype"] {
			case "error", "notice", "warning":
				parts = append(parts, e["subtype"].(string)+":"+e["message"].(string))
			}
		case "result":
			s := "end:" + e["subtype"].(string)
			if d, _ := e["permission_denials"].([]any); len(d) > 0 {
				s += "+denials"
			}
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " | ")
}

func TestTranslatorEdgeCases(t *testing.T) {
	cases := []struct {
		name, provider, in string
		exit               error
		want               string
		malformed          int
	}{
		{"gemini parallel tools and a tool error", "gemini", `
{"type":"init","session_id":"g1","model":"m"}
{"type":"message","role":"assistant","content":"Two ","delta":true}
{"type":"message","role":"assistant","content":"things.","delta":true}
{"type":"tool_use","tool_name":"read_file","tool_id":"r1","parameters":{"file_path":"a.txt"}}
{"type":"tool_use","tool_name":"replace","tool_id":"e1","parameters":{"file_path":"b.txt","old_string":"x","new_string":"y"}}
{"type":"tool_result","tool_id":"e1","status":"success"}
{"type":"tool_result","tool_id":"r1","status":"error","error":{"type":"FILE_NOT_FOUND","message":"no a.txt"}}
{"type":"message","role":"assistant","content":"Done.","delta":true}
{"type":"result","status":"success","stats":{"input_tokens":10,"output_tokens":2,"cached":4}}`,
			nil, "text:Two things. | use:r1:Read | use:e1:Edit | result:e1:ok | result:r1:err | text:Done. | end:success", 0},
		{"gemini stream cut before result", "gemini", `
{"type":"init","session_id":"g1","model":"m"}
{"type":"message","role":"assistant","content":"Half","delta":true}`,
			errors.New("signal: killed"), "text:Half | error:gemini exited (signal: killed) without finishing the turn | end:error_during_execution", 0},
		{"gemini unknown type and malformed lines", "gemini", `
{"type":"init","session_id":"g1","model":"m"}
{"type":"telemetry","x":1}
not json at all
{"no_type":true}
{"type":"result","status":"success"}`,
			nil, "end:success", 2},
		{"gemini error result", "gemini", `
{"type":"init","session_id":"g1","model":"m"}
{"type":"error","severity":"warning","message":"Loop detected"}
{"type":"result","status":"error","error":{"type":"MaxSessionTurnsError","message":"too many turns"}}`,
			nil, "notice:Loop detected | error:too many turns | end:error_during_execution", 0},
		{"codex file change, mcp, todo, declined", "codex", `
{"type":"thread.started","thread_id":"t1"}
{"type":"item.started","item":{"id":"item_0","type":"todo_list","items":[{"text":"a","completed":false}]}}
{"type":"item.completed","item":{"id":"item_1","type":"file_change","changes":[{"path":"new.go","kind":"add"},{"path":"old.go","kind":"update"}],"status":"completed"}}
{"type":"item.started","item":{"id":"item_2","type":"mcp_tool_call","server":"gh","tool":"issues","arguments":{"q":1},"status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_2","type":"mcp_tool_call","server":"gh","tool":"issues","arguments":{"q":1},"result":{"content":[{"type":"text","text":"3 issues"}]},"status":"completed"}}
{"type":"item.completed","item":{"id":"item_3","type":"command_execution","command":"bash -lc 'rm -rf /'","aggregated_output":"","status":"declined"}}
{"type":"item.completed","item":{"id":"item_4","type":"command_execution","command":"false","aggregated_output":"boom","exit_code":1,"status":"failed"}}
{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":60,"output_tokens":5}}`,
			nil, "use:item_0_s_1:TodoWrite | result:item_0_s_1:ok | use:item_1_s_0:Write | result:item_1_s_0:ok | use:item_1_s_1:Edit | result:item_1_s_1:ok | use:item_2_s:mcp__gh__issues | result:item_2_s:ok | use:item_3_s:Bash | warning:dangerous command (deletes a directory tree (rm -r); writes or deletes outside the working directory): rm -rf / | result:item_3_s:err | use:item_4_s:Bash | result:item_4_s:err | end:success+denials", 0},
		{"codex interrupted: no turn end", "codex", `
{"type":"thread.started","thread_id":"t1"}
{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"sleep 100","status":"in_progress"}}`,
			errors.New("signal: interrupt"), "use:item_0_s:Bash | error:codex exited (signal: interrupt) without finishing the turn | end:error_during_execution", 0},
		{"copilot cut mid-message keeps streamed text", "copilot", `
{"type":"assistant.message_delta","data":{"messageId":"m1","deltaContent":"par"},"ephemeral":true}
{"type":"assistant.message_delta","data":{"messageId":"m1","deltaContent":"tial"},"ephemeral":true}`,
			nil, "text:partial | error:copilot ended without finishing the turn | end:error_during_execution", 0},
		{"copilot parallel tools, hidden report_intent, array result", "copilot", `
{"type":"assistant.message","data":{"messageId":"m1","content":"","toolRequests":[{"toolCallId":"c0","name":"report_intent","arguments":{"intent":"x"}},{"toolCallId":"c1","name":"view","arguments":{"path":"a"}},{"toolCallId":"c2","name":"bash","arguments":{"command":"ls"}}]}}
{"type":"tool.execution_start","data":{"toolCallId":"c1","toolName":"view","arguments":{"path":"a"}}}
{"type":"tool.execution_complete","data":{"toolCallId":"c0","success":true,"result":{"content":"ok"}}}
{"type":"tool.execution_complete","data":{"toolCallId":"c2","success":false,"error":{"message":"exit 2","code":"failure"}}}
{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":true,"result":{"content":[{"type":"text","text":"file a"}]}}}
{"type":"assistant.usage","data":{"model":"m","inputTokens":7,"outputTokens":3}}
{"type":"result","sessionId":"s1","exitCode":0}`,
			nil, "use:c1:Read | use:c2:Bash | result:c2:err | result:c1:ok | end:success", 0},
		{"claude array tool_result content and stream events", "claude", `
{"type":"system","subtype":"hook_started"}
{"type":"system","subtype":"init","session_id":"c1","tools":["Bash"]}
{"type":"stream_event","event":{"type":"content_block_delta"}}
{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"hmm"},{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"x"}}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"line1"},{"type":"image"}]}]}}
{"type":"result","subtype":"error_max_turns","is_error":true,"errors":["max turns"],"num_turns":9}`,
			nil, "use:t1:Read | result:t1:ok | error:max turns | end:error_max_turns", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, malformed := translate(t, tc.provider, []byte(tc.in), tc.exit)
			if got := summary(t, out); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if malformed != tc.malformed {
				t.Errorf("malformed = %d, want %d", malformed, tc.malformed)
			}
			for _, e := range emittest.Validate(out) {
				t.Errorf("conformance: %v", e)
			}
		})
	}
}

func TestClaudeResultText(t *testing.T) {
	out, _ := translate(t, "claude", []byte(`{"type":"system","subtype":"init","session_id":"c1","tools":[]}
{"type":"assistant","message":{"content":[{"type":"text","text":"x"}]}}
{"type":"result","subtype":"success","is_error":false,"result":"final","usage":{"input_tokens":5,"output_tokens":6,"cache_read_input_tokens":7}}`), nil)
	evs := events(t, out)
	res := evs[len(evs)-2]
	u := res["usage"].(map[string]any)
	if res["result"] != "final" || u["input_tokens"] != 5.0 || u["cache_read_input_tokens"] != 7.0 {
		t.Errorf("result %v", res)
	}
}

func TestUnwrapShell(t *testing.T) {
	cases := map[string]string{
		"/bin/bash -lc 'echo hello-from-tool'": "echo hello-from-tool",
		"bash -lc ls":                          "ls",
		`/bin/zsh -c "a && b"`:                 "a && b",
		"ls -la":                               "ls -la",
		"python -c 'print(1)'":                 "python -c 'print(1)'",
		"bash -lc 'unterminated":               "bash -lc 'unterminated",
	}
	for in, want := range cases {
		if got := unwrapShell(in); got != want {
			t.Errorf("unwrapShell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestToolMapping(t *testing.T) {
	cases := []struct {
		name     string
		got      func() (string, map[string]any)
		wantName string
		wantIn   string
	}{
		{"gemini shell", func() (string, map[string]any) {
			return prov("gemini").MapTool("run_shell_command", map[string]any{"command": "ls", "dir_path": "x"})
		}, "Bash", `{"command":"ls"}`},
		{"gemini read range", func() (string, map[string]any) {
			return prov("gemini").MapTool("read_file", map[string]any{"file_path": "a", "start_line": 3.0, "end_line": 5.0})
		}, "Read", `{"file_path":"a","limit":3,"offset":3}`},
		{"gemini grep", func() (string, map[string]any) {
			return prov("gemini").MapTool("grep_search", map[string]any{"pattern": "x", "dir_path": "d", "include_pattern": "*.go"})
		}, "Grep", `{"glob":"*.go","path":"d","pattern":"x"}`},
		{"gemini ls", func() (string, map[string]any) {
			return prov("gemini").MapTool("list_directory", map[string]any{"dir_path": "d"})
		}, "LS", `{"path":"d"}`},
		{"gemini fetch", func() (string, map[string]any) {
			return prov("gemini").MapTool("web_fetch", map[string]any{"prompt": "summarise https://x.dev/a now"})
		}, "WebFetch", `{"prompt":"summarise https://x.dev/a now","url":"https://x.dev/a"}`},
		{"gemini todos", func() (string, map[string]any) {
			return prov("gemini").MapTool("write_todos", map[string]any{"todos": []any{map[string]any{"description": "a", "status": "cancelled"}}})
		}, "TodoWrite", `{"todos":[{"activeForm":"a","content":"a","status":"pending"}]}`},
		{"gemini unknown kept", func() (string, map[string]any) { return prov("gemini").MapTool("mystery", map[string]any{"k": 1.0}) }, "mystery", `{"k":1}`},
		{"copilot view", func() (string, map[string]any) { return prov("copilot").MapTool("view", map[string]any{"path": "a"}) }, "Read", `{"file_path":"a"}`},
		{"copilot edit", func() (string, map[string]any) {
			return prov("copilot").MapTool("str_replace", map[string]any{"path": "a", "old_str": "x", "new_str": "y"})
		}, "Edit", `{"file_path":"a","new_string":"y","old_string":"x"}`},
		{"copilot rg paths", func() (string, map[string]any) {
			return prov("copilot").MapTool("rg", map[string]any{"pattern": "p", "paths": []any{"src"}})
		}, "Grep", `{"path":"src","pattern":"p"}`},
		{"acp execute", func() (string, map[string]any) { return (&acpCall{kind: "execute", title: "npm test"}).tool() }, "Bash", `{"command":"npm test","description":"command from the agent's title for the call: its input named none"}`},
		{"acp edit path", func() (string, map[string]any) {
			return (&acpCall{kind: "edit", title: "Edit a", raw: map[string]any{"path": "a"}}).tool()
		}, "Edit", `{"file_path":"a"}`},
		{"acp read location", func() (string, map[string]any) {
			return (&acpCall{kind: "read", title: "Read", paths: []string{"/w/a"}}).tool()
		}, "Read", `{"file_path":"/w/a"}`},
	}
	for _, tc := range cases {
		name, in := tc.got()
		b, _ := json.Marshal(in)
		if name != tc.wantName || string(b) != tc.wantIn {
			t.Errorf("%s: got %s %s, want %s %s", tc.name, name, b, tc.wantName, tc.wantIn)
		}
	}
}

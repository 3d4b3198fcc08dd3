package emittest

import (
	"fmt"
	"strings"
	"testing"
)

// stream joins lines into a stream, giving each line a distinct uuid
// unless it has one or starts with "!" (which is dropped).
func stream(lines ...string) []byte {
	var b strings.Builder
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "!"):
			l = l[1:]
		case strings.HasPrefix(l, "{") && !strings.Contains(l, `"uuid"`):
			l = l[:len(l)-1] + fmt.Sprintf(`,"uuid":"u%d"}`, i)
		}
		b.WriteString(l + "\n")
	}
	return []byte(b.String())
}

const (
	sInit      = `{"type":"system","subtype":"init","session_id":"s","model":"m","cwd":"/","permissionMode":"default","tools":["Bash"]}`
	sResult    = `{"type":"result","subtype":"success","is_error":false,"session_id":"s","duration_ms":1,"result":"ok","usage":{"input_tokens":1,"output_tokens":2},"permission_denials":[]}`
	sErrResult = `{"type":"result","subtype":"error_during_execution","is_error":true,"session_id":"s","duration_ms":1,"result":"x","permission_denials":[],"errors":["x"]}`
	sStop      = `{"type":"message_stop"}`
	sText      = `{"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"hi"}],"stop_reason":null,"usage":{"input_tokens":0,"output_tokens":0}},"parent_tool_use_id":null,"session_id":"s"}`
	sFlatText  = `{"type":"text","content":"hi"}`
	sNotice    = `{"type":"system","subtype":"notice","message":"auto-approved: ls","session_id":"s"}`
	sSysErr    = `{"type":"system","subtype":"error","message":"not logged in","session_id":"s"}`
)

func sToolUse(id string) string {
	return `{"type":"assistant","message":{"id":"msg_2","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"` + id + `","name":"Bash","input":{"command":"ls"}}],"stop_reason":null,"usage":{"input_tokens":0,"output_tokens":0}},"parent_tool_use_id":null,"session_id":"s"}`
}

func sToolResult(id, content string, isError bool) string {
	return fmt.Sprintf(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":%s,"is_error":%v}]},"parent_tool_use_id":null,"session_id":"s"}`, id, content, isError)
}

func sFlatUse(id string) string {
	return `{"type":"tool_use","id":"` + id + `","name":"Bash","input":{"command":"ls"}}`
}

func sFlatResult(id, content string) string {
	return fmt.Sprintf(`{"type":"tool_result","tool_use_id":%q,"content":%s,"is_error":false}`, id, content)
}

func sCanUse(id string) string {
	return `{"type":"control_request","request_id":"req_1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"` + id + `"}}`
}

func TestValidateAcceptsGoodStreams(t *testing.T) {
	denied := strings.Replace(sErrResult, `"permission_denials":[]`, `"permission_denials":[{"tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"ls"}}]`, 1)
	tests := []struct {
		name   string
		stream []byte
	}{
		{"claude turn", stream(sInit, sText, sToolUse("t1"), sCanUse("t1"), sToolResult("t1", `"ok"`, false), sResult, sStop)},
		{"flat turn", stream(sInit, sFlatText, sFlatUse("t1"), sFlatResult("t1", `"ok"`), `{"type":"usage","input_tokens":5,"output_tokens":6}`, sResult, sStop)},
		{"two turns with a notice between", stream(sInit, sText, sResult, sStop, sNotice, sText, sErrResult, sStop)},
		{"init only", stream(sInit)},
		{"init and a notice", stream(sInit, sNotice)},
		{"interrupted turn", stream(sInit, sText, `{"type":"interrupt"}`, sErrResult, sStop)},
		{"denied tool", stream(sInit, sToolUse("t1"), sToolResult("t1", `"denied"`, true), denied, sStop)},
		{"auth failure", stream(sInit, sSysErr, sErrResult, sStop)},
		{"session change", stream(sInit, `{"type":"system","subtype":"session_id","session_id":"s2"}`, sResult, sStop)},
		{"thinking and error lines", stream(sInit, `{"type":"thinking","is_thinking":true,"thought":"hm"}`, `{"type":"error","message":"x","code":"E1"}`, sErrResult, sStop)},
		{"string message content", stream(sInit, `{"type":"assistant","message":{"role":"assistant","content":"plain"}}`, sResult, sStop)},
		{"message usage", stream(sInit, strings.Replace(sText, `"input_tokens":0,"output_tokens":0`, `"input_tokens":3,"output_tokens":1,"cache_read_input_tokens":900`, 1), sResult, sStop)},
		{"result without usage", stream(sInit, strings.Replace(sResult, `"usage":{"input_tokens":1,"output_tokens":2},`, "", 1), sStop)},
		{"rate limit", stream(sInit, `{"type":"system","subtype":"rate_limit","message":"429 Too Many Requests","session_id":"s"}`, sErrResult, sStop)},
		{"compaction", stream(sInit, `{"type":"system","subtype":"compact_boundary","session_id":"s"}`, strings.Replace(sResult, `"input_tokens":1,"output_tokens":2`, `"input_tokens":0,"output_tokens":0`, 1), sStop)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if errs := Validate(tt.stream); len(errs) > 0 {
				t.Fatalf("good stream fails Validate: %v\n%s", errs, tt.stream)
			}
		})
	}
}

func TestValidateCatchesBrokenStreams(t *testing.T) {
	long := `{"type":"text","content":"` + strings.Repeat("x", maxLine) + `"}`
	tests := []struct {
		name   string
		stream []byte
		want   string
	}{
		{"empty", nil, "empty stream"},
		{"no final newline", []byte(strings.TrimSuffix(string(stream(sInit)), "\n")), "not terminated by a newline"},
		{"not json", stream(sInit, "hello"), "not a single JSON object"},
		{"two objects on a line", stream(sInit, `{"type":"interrupt","uuid":"a"}{"type":"interrupt","uuid":"b"}`), "not a single JSON object"},
		{"array line", stream(sInit, `[1]`), "not a single JSON object"},
		{"blank line", stream(sInit, ``, sResult, sStop), "not a single JSON object"},
		{"no type", stream(sInit, `{"content":"x"}`), `no string "type"`},
		{"numeric type", stream(sInit, `{"type":1}`), `no string "type"`},
		{"unknown type", stream(sInit, `{"type":"stream_event"}`), `unknown type "stream_event"`},
		{"line too long", stream(sInit, long, sResult, sStop), "Yume drops lines"},
		{"invalid utf-8", stream(sInit, "{\"type\":\"text\",\"content\":\"\xff\"}", sResult, sStop), "invalid UTF-8"},
		{"missing uuid", stream(sInit, "!"+sFlatText, sResult, sStop), `no string "uuid"`},
		{"duplicate uuid", stream(sInit, `{"type":"interrupt","uuid":"same"}`, `{"type":"interrupt","uuid":"same"}`, sErrResult, sStop), `uuid "same" already used on line 2`},
		{"first line not init", stream(sNotice, sInit), "first line must be system/init"},
		{"no init", stream(sNotice), "no system/init"},
		{"second init", stream(sInit, sInit), "second system/init"},
		{"init without session", stream(`{"type":"system","subtype":"init","tools":[]}`), `system/init has no "session_id"`},
		{"init tools not strings", stream(`{"type":"system","subtype":"init","session_id":"s","tools":[1]}`), `"tools" must list tool names`},
		{"system without subtype", stream(sInit, `{"type":"system","message":"x"}`), `system has no "subtype"`},
		{"system error without message", stream(sInit, `{"type":"system","subtype":"error"}`), `system/error has no "message"`},
		{"flat tool_result array content", stream(sInit, sFlatUse("t1"), sFlatResult("t1", `[{"type":"text","text":"ok"}]`), sResult, sStop), `field "content" must be a string`},
		{"claude tool_result array content", stream(sInit, sToolUse("t1"), sToolResult("t1", `[{"type":"text","text":"ok"}]`, false), sResult, sStop), `tool_result block field "content" must be a string`},
		{"tool_result is_error string", stream(sInit, sFlatUse("t1"), `{"type":"tool_result","tool_use_id":"t1","content":"x","is_error":"no"}`, sResult, sStop), `"is_error" must be true or false`},
		{"tool_use without input", stream(sInit, `{"type":"tool_use","id":"t1","name":"Bash"}`, sResult, sStop), `tool_use has no "input"`},
		{"tool_use null input", stream(sInit, `{"type":"tool_use","id":"t1","name":"Bash","input":null}`, sResult, sStop), `"input" must be a value`},
		{"tool_use numeric id", stream(sInit, `{"type":"tool_use","id":1,"name":"Bash","input":{}}`, sResult, sStop), `"id" must be a string`},
		{"duplicate tool_use id", stream(sInit, sToolUse("t1"), sFlatUse("t1"), sResult, sStop), `tool_use id "t1" already used on line 2`},
		{"tool_result for unknown id", stream(sInit, sFlatResult("t9", `"x"`), sResult, sStop), `tool_result for "t9", which no earlier tool_use has`},
		{"tool_result before its tool_use", stream(sInit, sToolResult("t1", `"x"`, false), sToolUse("t1"), sResult, sStop), `which no earlier tool_use has`},
		{"can_use_tool for unknown tool", stream(sInit, sCanUse("t1"), sResult, sStop), `can_use_tool for "t1"`},
		{"assistant message not object", stream(sInit, `{"type":"assistant","message":"hi"}`, sResult, sStop), `"message" must be an object`},
		{"assistant wrong role", stream(sInit, strings.Replace(sText, `"role":"assistant"`, `"role":"user"`, 1), sResult, sStop), `role must be "assistant"`},
		{"text block without text", stream(sInit, strings.Replace(sText, `"text":"hi"`, `"txt":"hi"`, 1), sResult, sStop), `text block has no "text"`},
		{"text content not string", stream(sInit, `{"type":"text","content":["x"]}`, sResult, sStop), `"content" must be a string`},
		{"usage negative", stream(sInit, `{"type":"usage","input_tokens":-1,"output_tokens":0}`, sResult, sStop), `"input_tokens" must be a non-negative integer`},
		{"usage float", stream(sInit, `{"type":"usage","input_tokens":1.5,"output_tokens":0}`, sResult, sStop), `"input_tokens" must be a non-negative integer`},
		{"nested usage on usage line", stream(sInit, `{"type":"usage","usage":{"input_tokens":1,"output_tokens":2}}`, sResult, sStop), `top-level "usage" object`},
		{"usage object on assistant line", stream(sInit, `{"type":"assistant","message":{"role":"assistant","content":"x"},"usage":{"input_tokens":1,"output_tokens":1}}`, sResult, sStop), `only result may carry one`},
		{"result num_turns without cache reads", stream(sInit, strings.Replace(sResult, `"result":"ok"`, `"num_turns":2,"result":"ok"`, 1), sStop), `num_turns and no cache_read_input_tokens`},
		{"result empty with no usage", stream(sInit, strings.Replace(sErrResult, `"result":"x",`, ``, 1), sStop), `empty "result" and no usage`},
		{"result zero usage", stream(sInit, strings.Replace(sResult, `"input_tokens":1,"output_tokens":2`, `"input_tokens":0,"output_tokens":0,"cache_read_input_tokens":5`, 1), sStop), `Yume takes it for a compaction`},
		{"message usage negative", stream(sInit, strings.Replace(sText, `"input_tokens":0`, `"input_tokens":-2`, 1), sResult, sStop), `assistant message usage field "input_tokens"`},
		{"rate limit without message", stream(sInit, `{"type":"system","subtype":"rate_limit"}`), `system/rate_limit has no "message"`},
		{"result without denials", stream(sInit, strings.Replace(sResult, `,"permission_denials":[]`, "", 1), sStop), `result has no "permission_denials"`},
		{"result usage wrong type", stream(sInit, strings.Replace(sResult, `"output_tokens":2`, `"output_tokens":"2"`, 1), sStop), `result usage field "output_tokens"`},
		{"error result without errors", stream(sInit, strings.Replace(sErrResult, `,"errors":["x"]`, "", 1), sStop), `must list its "errors"`},
		{"error result empty errors", stream(sInit, strings.Replace(sErrResult, `["x"]`, `[]`, 1), sStop), `must list its "errors"`},
		{"errors not strings", stream(sInit, strings.Replace(sErrResult, `["x"]`, `[1]`, 1), sStop), `"errors" must be strings`},
		{"error subtype not is_error", stream(sInit, strings.Replace(sResult, `"subtype":"success"`, `"subtype":"error_max_turns"`, 1), sStop), `needs is_error true`},
		{"interrupted but success", stream(sInit, `{"type":"interrupt"}`, sResult, sStop), "interrupted but its result has is_error false"},
		{"denial without error result", stream(sInit, sToolUse("t1"), sToolResult("t1", `"ok"`, false), strings.Replace(sResult, `"permission_denials":[]`, `"permission_denials":[{"tool_name":"Bash","tool_use_id":"t1","tool_input":{}}]`, 1), sStop), `permission denial of "t1" has no is_error tool_result`},
		{"denial entry malformed", stream(sInit, strings.Replace(sResult, `"permission_denials":[]`, `"permission_denials":["t1"]`, 1), sStop), "permission_denials entries must be objects"},
		{"result without message_stop", stream(sInit, sResult), "without message_stop"},
		{"result not followed by message_stop", stream(sInit, sResult, sText, sStop), "must be followed immediately by message_stop"},
		{"message_stop without result", stream(sInit, sText, sStop), "message_stop without a result"},
		{"two results", stream(sInit, sResult, sResult, sStop), "a second result in one turn"},
		{"turn never ended", stream(sInit, sText, sResult, sStop, sFlatText), "the turn starting on line 5 never ended"},
		{"turn without any result", stream(sInit, sText), "the turn starting on line 2 never ended"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := Validate(tt.stream)
			var all []string
			for _, e := range errs {
				all = append(all, e.Error())
			}
			if !strings.Contains(strings.Join(all, "\n"), tt.want) {
				t.Errorf("Validate found %q, want a problem containing %q", all, tt.want)
			}
		})
	}
}

func TestValidateErrorsNameTheLine(t *testing.T) {
	errs := Validate(stream(sInit, sText, `{"type":"tool_result","tool_use_id":"t9","content":"x"}`, sResult, sStop))
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "line 3 (tool_result): ") {
		t.Errorf("errors = %v, want one starting with line 3 (tool_result)", errs)
	}
}

func FuzzValidate(f *testing.F) {
	f.Add(stream(sInit, sText, sToolUse("t1"), sToolResult("t1", `"ok"`, false), sResult, sStop))
	f.Add(stream(sInit, sFlatUse("t1"), sFlatResult("t1", `[1]`), sErrResult))
	f.Add([]byte("{\n[\n\"type\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, err := range Validate(data) {
			if err == nil || err.Error() == "" {
				t.Fatal("Validate returned an empty problem")
			}
		}
	})
}

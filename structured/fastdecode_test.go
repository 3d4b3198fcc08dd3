package structured

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fastDecodeCases are lines that probe where encoding/json's rules are
// subtle: case-folded and escaped keys, repeated members, nulls, wrong
// types, escapes and invalid UTF-8 in values, and broken syntax.
var fastDecodeCases = []string{
	`{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}`,
	`{"type":"assistant","message":{"content":"prompt"}}`,
	`{"type":"assistant","message":{"content":[],"usage":{"input_tokens":3,"cache_creation_input_tokens":40,"cache_read_input_tokens":500,"output_tokens":1,"server_tool_use":{"web_search_requests":0},"service_tier":"standard"}}}`,
	`{"type":"assistant","message":{"usage":null,"content":[]}}`,
	`{"type":"assistant","message":{"usage":{"input_tokens":null,"output_tokens":2}}}`,
	`{"type":"assistant","message":{"usage":{"input_tokens":1.5}}}`,
	`{"type":"assistant","message":{"usage":{"Input_Tokens":1}}}`,
	`{"type":"assistant","message":{"usage":{"input_tokens":1},"usage":{"output_tokens":2}}}`,
	`{"type":"assistant","message":{"usage":[1]}}`,
	`{"type":"assistant","message":{"content":null}}`,
	`{"type":"assistant","message":{"content":[null,{"type":"tool_use","id":"t","name":"Bash","input":{ "command" : "ls" }}]}}`,
	`{"type":"assistant","message":null,"error":"rate_limit"}`,
	`{"type":"assistant","Message":{"content":[]}}`,
	`{"type":"assistant","TYPE":"user"}`,
	`{"\u0074ype":"assistant"}`,
	`{"type":"assistant","ſubtype":"x"}`,
	`{"type":"assistant","message":{},"message":{"content":[]}}`,
	`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"a"}],"is_error":true}]}}`,
	`{"type":"user","message":{"content":[{"is_error":"yes"}]}}`,
	`{"type":"user","message":{"content":5}}`,
	`{"type":"user","session_id":7}`,
	`{"type":"assistant","message":{"content":[{"text":"caf\u00e9 \ud83d\ude00 \"q\" \n"}]}}`,
	"{\"type\":\"assistant\",\"message\":{\"content\":[{\"text\":\"bad \xff byte\"}]}}",
	"{\"type\":\"assistant\",\"k\xc3\xa9y\":1}",
	`{"type":"assistant"} `,
	`{"type":"assistant"} x`,
	`{"type":"assistant",}`,
	`{"type":"assistant" "x":1}`,
	`{"type":"text","n":01}`,
	`{"type":"text","n":-0.5e+3,"m":1.}`,
	`{"type":"text","s":"tab	inside"}`,
	`{"type":"text","s":"\x"}`,
	`{"type":"text","s":"\u12"}`,
	`[{"type":"text"}]`,
	`"type"`,
	``,
	`{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"completed"}}`,
	`{"type":"item.completed","item":{"id":"item_1","type":"command_execution","exit_code":2}}`,
	`{"type":"item.completed","item":{"exit_code":1.5}}`,
	`{"type":"item.completed","item":{"exit_code":1e2}}`,
	`{"type":"item.completed","item":{"exit_code":99999999999999999999}}`,
	`{"type":"item.completed","item":{"changes":[{"path":"a","kind":"add"}]}}`,
	`{"type":"item.completed","item":{"id":"a"},"item":{"type":"b"}}`,
	`{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":2}}`,
	`{"type":"tool_use","tool_name":"run_shell_command","tool_id":"x","parameters":{"command":"ls","n":1.5,"deep":{"a":[1,"b",null,true]},"k":1,"k":2}}`,
	`{"type":"tool_use","parameters":{"a":1},"parameters":{"b":2}}`,
	`{"type":"tool_use","parameters":{"big":1e400}}`,
	`{"type":"tool_use","parameters":{"\u0061":"escaped key","é":"x"}}`,
	`{"type":"tool_use","parameters":[]}`,
	`{"type":"tool_result","tool_id":"x","status":"error","output":null,"error":{"type":"tool_not_registered","message":"m","extra":1}}`,
	`{"type":"tool_result","output":"a","output":null}`,
	`{"type":"tool_result","error":{"type":"a"},"error":null}`,
	`{"type":"result","status":"success","stats":{"input_tokens":1}}`,
	`{"type":"assistant.message","data":{"messageId":"m","content":"c","toolRequests":[{"toolCallId":"c1","name":"bash","arguments":{"command":"ls"},"type":"function"},null]}}`,
	`{"type":"assistant.message","data":{"toolRequests":[{"arguments":{"a":1},"arguments":{"b":2}}]}}`,
	`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":false,"error":{"message":"no","code":"denied"}}}`,
	`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":true,"result":{"content":"ok","detailedContent":"x"}}}`,
	`{"type":"tool.execution_complete","data":{"result":null}}`,
	`{"type":"assistant.usage","data":{"inputTokens":10,"outputTokens":-2,"cacheReadTokens":3}}`,
	`{"type":"result","sessionId":"s","exitCode":0}`,
	`{"type":"result","exitCode":"0"}`,
	`{"type":"x","ephemeral":null,"data":null}`,
}

// fastDecodeInputs are the cases above, every captured line and the
// benchmark's typical lines.
func fastDecodeInputs(t testing.TB) []string {
	inputs := append([]string{}, fastDecodeCases...)
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.jsonl"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, strings.Split(string(data), "\n")...)
	}
	for _, lines := range typicalLines {
		inputs = append(inputs, lines...)
	}
	return inputs
}

// sameAsJSON checks one fast decoder against json.Unmarshal on line: when
// the fast path accepts the line, json.Unmarshal must accept it too and
// produce the same value.
func sameAsJSON[T any, P fastDecoder[T]](t *testing.T, line string) {
	t.Helper()
	var fast, slow T
	if !P(&fast).fastDecode([]byte(line)) {
		return
	}
	if err := json.Unmarshal([]byte(line), &slow); err != nil {
		t.Errorf("%T: fast path accepted a line json.Unmarshal rejects (%v): %s", fast, err, line)
		return
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Errorf("%T: fast path decoded %s\n got %+v\nwant %+v", fast, line, fast, slow)
	}
}

func checkAllDecoders(t *testing.T, line string) {
	t.Helper()
	sameAsJSON[claudeLine](t, line)
	sameAsJSON[codexLine](t, line)
	sameAsJSON[geminiLine](t, line)
	sameAsJSON[copilotLine](t, line)
	sameAsJSON[copilotData](t, line)
}

// TestFastDecodeMatchesEncodingJSON guards the fast decoders: on every
// input each one either gives up or agrees with json.Unmarshal.
func TestFastDecodeMatchesEncodingJSON(t *testing.T) {
	inputs := fastDecodeInputs(t)
	for _, line := range inputs {
		checkAllDecoders(t, line)
	}
	// The data object of each Copilot line goes through copilotData.
	for _, line := range inputs {
		var l copilotLine
		if json.Unmarshal([]byte(line), &l) == nil && len(l.Data) > 0 {
			checkAllDecoders(t, string(l.Data))
		}
	}
}

// TestFastDecodeTakesTypicalLines makes sure the fast path is really used
// for the lines a stream is made of (else the benchmark would silently
// measure json.Unmarshal again).
func TestFastDecodeTakesTypicalLines(t *testing.T) {
	decoders := map[string]func([]byte) bool{
		"claude":  func(b []byte) bool { return new(claudeLine).fastDecode(b) },
		"codex":   func(b []byte) bool { return new(codexLine).fastDecode(b) },
		"gemini":  func(b []byte) bool { return new(geminiLine).fastDecode(b) },
		"copilot": func(b []byte) bool { return new(copilotLine).fastDecode(b) },
	}
	for provider, lines := range typicalLines {
		for _, line := range lines {
			line = strings.ReplaceAll(line, "%d", "1")
			if !decoders[provider]([]byte(line)) {
				t.Errorf("%s: fast path gave up on %s", provider, line)
			}
		}
	}
}

// FuzzFastDecode compares the fast decoders with json.Unmarshal on any
// input.
func FuzzFastDecode(f *testing.F) {
	for _, line := range fastDecodeInputs(f) {
		f.Add(line)
	}
	f.Fuzz(checkAllDecoders)
}

// TestJSONNames: the fast decoders' key lists come from the struct tags,
// so a new field is never dropped: its key sends a line to encoding/json.
func TestJSONNames(t *testing.T) {
	type sample struct {
		A      string `json:"a,omitempty"`
		B      int
		Hidden string `json:"-"`
		lower  int
	}
	if got := strings.Join(jsonNames(sample{}), ","); got != "a,B" {
		t.Errorf("jsonNames = %s, want a,B", got)
	}
	if got := strings.Join(jsonNames(copilotData{}.Result), ","); got != "content" {
		t.Errorf("jsonNames of a nil *struct = %s, want content", got)
	}
}

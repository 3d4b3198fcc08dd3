package structured

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/providers"
)

// Lines as `opencode run --format json` 1.18.34 prints them (cut to the
// fields read), from runs against the fake model.
const (
	ocStart    = `{"type":"step_start","sessionID":"ses_1","part":{"type":"step-start"}}`
	ocText     = `{"type":"text","sessionID":"ses_1","part":{"type":"text","text":"Now run."}}`
	ocBash     = `{"type":"tool_use","sessionID":"ses_1","part":{"type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","input":{"command":"echo hi","description":"say hi"},"output":"hi\n","metadata":{"exit":0}}}}`
	ocRejected = `{"type":"tool_use","sessionID":"ses_1","part":{"type":"tool","tool":"bash","callID":"c1","state":{"status":"error","input":{"command":"echo hi","description":"say hi"},"error":"The user rejected permission to use this specific tool call."}}}`
	ocEdit     = `{"type":"tool_use","sessionID":"ses_1","part":{"type":"tool","tool":"edit","callID":"c2","state":{"status":"completed","input":{"filePath":"a.txt","oldString":"hello","newString":"bye"},"output":"Edit applied successfully."}}}`
	ocFailed   = `{"type":"tool_use","sessionID":"ses_1","part":{"type":"tool","tool":"read","callID":"c3","state":{"status":"error","input":{"filePath":"nope"},"error":"File not found: nope"}}}`
	ocFinish   = `{"type":"step_finish","sessionID":"ses_1","part":{"type":"step-finish","reason":"stop","tokens":{"input":10,"output":3,"cache":{"read":4,"write":0}}}}`
	ocError    = `{"type":"error","sessionID":"ses_1","error":{"name":"APIError","data":{"message":"model not found"}}}`
)

func TestOpenCodeJSON(t *testing.T) {
	cases := []struct {
		name, perm, in string
		exit           error
		want           string
		inputs         map[string]string // tool_use id -> input JSON
	}{
		{"auto: calls ran under the allow-all", "auto", strings.Join([]string{ocStart, ocText, ocBash, ocEdit, ocFinish}, "\n"), nil,
			"text:Now run. | use:c1:Bash | result:c1:ok | use:c2:Edit | result:c2:ok | end:success",
			map[string]string{"c1": `{"approved_by":"OPENCODE_PERMISSION {\"bash\":\"allow\",\"edit\":\"allow\"}","command":"echo hi","description":"say hi"}`,
				"c2": `{"approved_by":"OPENCODE_PERMISSION {\"bash\":\"allow\",\"edit\":\"allow\"}","file_path":"a.txt","new_string":"bye","old_string":"hello"}`}},
		{"deny: a rejected call is a denial; a failed read an error", "deny", strings.Join([]string{ocStart, ocText, ocRejected, ocFailed, ocFinish}, "\n"), nil,
			"text:Now run. | use:c1:Bash | result:c1:err | use:c3:Read | result:c3:err | end:success+denials",
			map[string]string{"c1": `{"command":"echo hi","description":"say hi"}`, "c3": `{"approved_by":"opencode, without asking","file_path":"nope"}`}},
		{"an error event fails the turn", "auto", ocStart + "\n" + ocError, nil,
			"error:model not found | error:opencode ended without finishing the turn: model not found | end:error_during_execution", nil},
		{"killed mid-turn", "auto", ocStart + "\n" + ocText, errors.New("signal: killed"),
			"text:Now run. | error:opencode exited (signal: killed) without finishing the turn | end:error_during_execution", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			w := emit.NewWriter(&out, emit.Config{SessionID: "sess-test"})
			p := prov("opencode")
			m, _ := p.ModeFor(providers.ModeJSON, "")
			tr, err := NewTranslator(p, m, w, c.perm)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(c.in, "\n") {
				if err := tr.Line([]byte(line)); err != nil {
					t.Fatalf("line %s: %v", line, err)
				}
			}
			if err := tr.Finish(c.exit); err != nil {
				t.Fatal(err)
			}
			if got := summary(t, out.Bytes()); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			for id, want := range c.inputs {
				if in := toolInput(t, out.Bytes(), id); in != want {
					t.Errorf("tool_use %s input %s, want %s", id, in, want)
				}
			}
			if c.name == "auto: calls ran under the allow-all" && !strings.Contains(out.String(), `"input_tokens":10,"output_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":4`) {
				t.Errorf("the steps' tokens are not the result's usage:\n%s", out.String())
			}
			for _, e := range emittest.Validate(out.Bytes()) {
				t.Errorf("conformance: %v", e)
			}
		})
	}
}

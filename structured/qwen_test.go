package structured

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/providers"
)

// Lines as headless `qwen -o stream-json` 0.24.4 prints them (cut to the
// fields read), from runs against the fake model.
const (
	qwInit     = `{"type":"system","subtype":"init","session_id":"q-1","tools":["run_shell_command","read_file"],"model":"m"}`
	qwText     = `{"type":"assistant","session_id":"q-1","message":{"role":"assistant","content":[{"type":"text","text":"Running it."}]}}`
	qwShell    = `{"type":"assistant","session_id":"q-1","message":{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"run_shell_command","input":{"command":"echo hi","description":"greet"}}]}}`
	qwOutput   = `{"type":"user","session_id":"q-1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","is_error":false,"content":"hi"}]}}`
	qwDeclined = `{"type":"user","session_id":"q-1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","is_error":true,"content":"Qwen Code requires permission to use \"run_shell_command\", but that permission was declined. Matching deny rule: \"run_shell_command\"."}]}}`
	qwWrite    = `{"type":"assistant","session_id":"q-1","message":{"role":"assistant","content":[{"type":"tool_use","id":"c2","name":"write_file","input":{"file_path":"n.md","content":"x"}}]}}`
	qwFailed   = `{"type":"user","session_id":"q-1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c2","is_error":true,"content":"disk full"}]}}`
	qwDone     = `{"type":"assistant","session_id":"q-1","message":{"role":"assistant","content":[{"type":"text","text":"All done."}]}}`
	qwResult   = `{"type":"result","subtype":"success","session_id":"q-1","is_error":false,"result":"All done.","usage":{"input_tokens":5,"output_tokens":2},"permission_denials":[{"tool_name":"run_shell_command","tool_use_id":"c1","tool_input":{}}]}`
)

func TestQwenJSON(t *testing.T) {
	cases := []struct {
		name, perm string
		lines      []string
		want       string
		inputs     map[string]string
	}{
		{"auto: Claude's names, who let it run", "auto", []string{qwInit, qwText, qwShell, qwOutput, qwDone, qwResult},
			"text:Running it. | use:c1:Bash | result:c1:ok | text:All done. | end:success",
			map[string]string{"c1": `{"approved_by":"qwen --approval-mode yolo","command":"echo hi","description":"greet"}`}},
		{"deny: a declined call is a denial, a failed one an error", "deny", []string{qwInit, qwShell, qwDeclined, qwWrite, qwFailed, qwDone, qwResult},
			"use:c1:Bash | result:c1:err | use:c2:Write | result:c2:err | text:All done. | end:success+denials",
			map[string]string{"c1": `{"command":"echo hi","description":"greet"}`, "c2": `{"content":"x","file_path":"n.md"}`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			w := emit.NewWriter(&out, emit.Config{SessionID: "sess-test"})
			p := prov("qwen")
			m, _ := p.ModeFor(providers.ModeJSON, "")
			tr, err := NewTranslator(p, m, w, c.perm)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range c.lines {
				if err := tr.Line([]byte(line)); err != nil {
					t.Fatalf("line %s: %v", line, err)
				}
			}
			if err := tr.Finish(nil); err != nil {
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
			if strings.Contains(out.String(), "denied without asking") {
				t.Errorf("the denial yume-cli reported is reported again as the program's:\n%s", out.String())
			}
			for _, e := range emittest.Validate(out.Bytes()) {
				t.Errorf("conformance: %v", e)
			}
		})
	}
}

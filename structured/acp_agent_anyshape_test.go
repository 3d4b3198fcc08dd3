package structured

import (
	"os"
	"strings"
	"testing"
)

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

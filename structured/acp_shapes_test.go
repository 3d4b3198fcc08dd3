package structured

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
)

// wantInput checks an input against want, ignoring who approved it and
// the guard's mark.
func wantInput(want map[string]any) func(map[string]any) string {
	return func(in map[string]any) string {
		got := map[string]any{}
		for k, v := range in {
			if k != "approved_by" && k != "dangerous" {
				got[k] = v
			}
		}
		if a, b := mustJSON(got), mustJSON(want); a != b {
			return fmt.Sprintf("input %s, want %s", a, b)
		}
		return ""
	}
}

// translateCall runs g's frames through the ACP translator, as a session
// would (the permission request's tool_use written as it is asked).
func translateCall(t *testing.T, g genCall) []byte {
	t.Helper()
	var out bytes.Buffer
	w := emit.NewWriter(&out, emit.Config{SessionID: "sess-gen", Model: "m", Cwd: "/ws"})
	tr := &acpTranslator{turn: newTurn(w, prov("acp"), "default"), agent: "agent"}
	tr.terminalOutput = func(id string) (string, bool, bool) { s, ok := g.terms[id]; return s, false, ok }
	if err := tr.init("s-1", prov("acp").Tools); err != nil {
		t.Fatal(err)
	}
	for _, f := range g.frames {
		if p, ok := strings.CutPrefix(f, "permission:"); ok {
			var u acpUpdate
			if err := json.Unmarshal([]byte(p), &u); err != nil {
				t.Fatal(err)
			}
			if !tr.tools.seen(u.ToolCallID) {
				if err := tr.use(u); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		if err := tr.update([]byte(`{"sessionId":"s-1","update":` + f + `}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.stop("end_turn"); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestACPToolCallShapes: generated tool calls in the shapes ACP agents
// send (argv arrays, wrapped shells, content-only calls, nested
// rawOutput, terminals, diffs, locations, unknown kinds) reach Yume as
// Claude's tools: the command a person would type, the output as
// printed, never an object serialised.
func TestACPToolCallShapes(t *testing.T) {
	r := shapeSeed(t)
	n := 400
	if testing.Short() {
		n = 100
	}
	seen := map[string]int{}
	for i := range n {
		id := fmt.Sprintf("call_%d", i)
		var g genCall
		switch r.IntN(4) {
		case 0, 1:
			g = genExecute(r, id)
		case 2:
			g = genEdit(r, id)
		default:
			g = genOther(r, id)
		}
		seen[g.shape]++
		out := translateCall(t, g)
		fail := func(format string, args ...any) {
			t.Errorf("%d (%s): %s\nframes:\n%s\nstdout:\n%s", i, g.shape, fmt.Sprintf(format, args...), strings.Join(g.frames, "\n"), out)
		}
		for _, e := range emittest.Validate(out) {
			fail("conformance: %v", e)
		}
		var uses []map[string]any
		var results []map[string]any
		for _, e := range events(t, out) {
			msg, _ := e["message"].(map[string]any)
			blocks, _ := msg["content"].([]any)
			for _, b := range blocks {
				switch m, _ := b.(map[string]any); m["type"] {
				case "tool_use":
					uses = append(uses, m)
				case "tool_result":
					results = append(results, m)
				}
			}
		}
		if len(uses) != 1 || len(results) != 1 {
			fail("%d tool_uses and %d tool_results, want one each", len(uses), len(results))
			continue
		}
		in, _ := uses[0]["input"].(map[string]any)
		if uses[0]["name"] != g.wantName {
			fail("tool %v, want %s", uses[0]["name"], g.wantName)
		} else if why := g.check(in); why != "" {
			fail("%s", why)
		}
		content, _ := results[0]["content"].(string)
		if content != g.wantOutput {
			fail("tool_result %q, want %q", content, g.wantOutput)
		}
		if strings.Contains(content, `"call_id"`) || strings.Contains(content, `"stdout"`) {
			fail("tool_result is the agent's object serialised: %q", content)
		}
	}
	t.Logf("shapes: %v", seen)
}

// TestACPRawOutput: the usual output fields of a rawOutput, a non-zero
// exit code said, and an object without text named by its fields only.
func TestACPRawOutput(t *testing.T) {
	cases := []struct {
		raw, want string
		ok        bool
	}{
		{`"plain"`, "plain", true},
		{`{"stdout":"a\n","stderr":"warn\n","exit_code":2}`, "a\nwarn\nexit code 2", true},
		{`{"formatted_output":"f","aggregated_output":"g","stdout":"s"}`, "f", true},
		{`{"exitStatus":{"exitCode":1},"output":"o"}`, "o\nexit code 1", true},
		{`[{"type":"text","text":"x"},{"type":"text","text":"y"}]`, "x\ny", true},
		{`{"response":{"output":"deep"}}`, "deep", true},
		{`{"call_id":"c","process_id":"1"}`, "", false},
		{`null`, "", false},
	}
	for _, c := range cases {
		got, ok := rawOutputText(json.RawMessage(c.raw))
		if got != c.want || ok != c.ok {
			t.Errorf("rawOutputText(%s) = %q, %v; want %q, %v", c.raw, got, ok, c.want, c.ok)
		}
	}
	if got := noOutput("completed", json.RawMessage(`{"process_id":"1","call_id":"c"}`)); got != "completed (the agent's output held no text; its fields: call_id, process_id)" {
		t.Errorf("noOutput: %q", got)
	}
}

// TestUnwrapArgv: shell wrappers come off an argv; other argvs are joined
// with the quoting a shell needs.
func TestUnwrapArgv(t *testing.T) {
	cases := []struct {
		argv []string
		want string
	}{
		{[]string{"/bin/bash", "-lc", "a && b"}, "a && b"},
		{[]string{"bash", "-c", "x"}, "x"},
		{[]string{"/bin/zsh", "-l", "-c", "x y"}, "x y"},
		{[]string{"sh", "-ec", "set -x"}, "set -x"},
		{[]string{"bash", "script.sh", "arg"}, "bash script.sh arg"},
		{[]string{"python3", "-c", "print(1)"}, "python3 -c 'print(1)'"},
		{[]string{"echo", "it's"}, `echo 'it'\''s'`},
		{[]string{"echo", ""}, "echo ''"},
	}
	for _, c := range cases {
		if got := argvCommand(c.argv); got != c.want {
			t.Errorf("argvCommand(%q) = %q, want %q", c.argv, got, c.want)
		}
	}
}

// TestACPRawOutputResult: rawOutput in the shapes agents send, read as
// what was printed and whether the call failed: Cline's array of
// {query,result,success} (one per command), its {"error":…} sent as a
// JSON string, content blocks, objects with an error or success:false.
func TestACPRawOutputResult(t *testing.T) {
	cases := []struct {
		name, raw, want string
		failed, ok      bool
	}{
		{"cline run_commands", `[{"query":"echo hello-from-agent > out.txt; ls","result":"out.txt\n","success":true}]`, "out.txt", false, true},
		{"cline two commands, one silent", `[{"query":"echo one > one.txt","result":"","success":true},{"query":"cat new.txt","result":"hello\n","success":true}]`, "hello", false, true},
		{"cline all silent", `[{"query":"true","result":"","success":true}]`, "", false, true},
		{"cline a command failed", `[{"query":"ls","result":"a\n","success":true},{"query":"false","result":"","error":"Command failed: exit 1","success":false}]`, "a\nCommand failed: exit 1", true, true},
		{"cline a failure with output", `[{"query":"make","result":"make: *** No rule\n","error":"Command exited with code 2","success":false}]`, "make: *** No rule\nCommand exited with code 2", true, true},
		{"cline editor", `{"query":"edit:/ws/new.txt","result":"File created successfully at: /ws/new.txt","success":true}`, "File created successfully at: /ws/new.txt", false, true},
		{"cline editor failed", `{"query":"edit:/ws/a.txt","result":"","error":"Editor operation failed: no match","success":false}`, "Editor operation failed: no match", true, true},
		{"cline rejection: an error object as a JSON string", `"{\"error\":\"User rejected the tool call -- NOT a tool or system failure. Clarify with user before proceeding.\"}"`,
			"User rejected the tool call -- NOT a tool or system failure. Clarify with user before proceeding.", true, true},
		{"output that is JSON stays", `"{\"a\": 1, \"error\": null}\n"`, "{\"a\": 1, \"error\": null}\n", false, true},
		{"an error object", `{"error":{"message":"boom","code":7}}`, "boom", true, true},
		{"isError", `{"content":[{"type":"text","text":"nope"}],"isError":true}`, "nope", true, true},
		{"array of text items", `[{"text":"a"},{"text":"b"}]`, "a\nb", false, true},
		{"array of strings", `["a\n","b"]`, "a\nb", false, true},
		{"array of outputs", `[{"output":"x"},{"stdout":"y\n","stderr":""}]`, "x\ny", false, true},
		{"exit code", `{"stdout":"","stderr":"bad\n","exit_code":3}`, "bad\nexit code 3", true, true},
		{"an array of bookkeeping", `[{"id":1}]`, "", false, false},
	}
	for _, c := range cases {
		out, failed, ok := rawOutputResult(json.RawMessage(c.raw))
		if out != c.want || failed != c.failed || ok != c.ok {
			t.Errorf("%s: rawOutputResult(%s) = %q, failed %v, ok %v; want %q, %v, %v", c.name, c.raw, out, failed, ok, c.want, c.failed, c.ok)
		}
	}
}

package structured

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/emit/emittest"
)

// callsIn are the tool_uses (name and input as JSON) and tool_results
// (content, error) in out, by id, with how many tool_uses each id had.
type callsIn struct {
	uses    map[string][]string
	results map[string][]string
}

func readCalls(t *testing.T, out []byte) callsIn {
	t.Helper()
	c := callsIn{uses: map[string][]string{}, results: map[string][]string{}}
	for _, e := range events(t, out) {
		msg, _ := e["message"].(map[string]any)
		blocks, _ := msg["content"].([]any)
		for _, b := range blocks {
			switch m, _ := b.(map[string]any); m["type"] {
			case "tool_use":
				input, _ := m["input"].(map[string]any)
				delete(input, "dangerous") // the guard's, by where the test runs
				in, _ := json.Marshal(input)
				id, _ := m["id"].(string)
				c.uses[id] = append(c.uses[id], fmt.Sprintf("%s %s", m["name"], in))
			case "tool_result":
				id, _ := m["tool_use_id"].(string)
				content, _ := m["content"].(string)
				isErr, _ := m["is_error"].(bool)
				c.results[id] = append(c.results[id], fmt.Sprintf("%q error=%v", content, isErr))
			}
		}
	}
	return c
}

// TestACPRealFrames: the frames real agents sent (trimmed from the
// scouts' recordings, testdata/acp-frames) give one tool_use per call,
// with the command a person would type (never the title) and what the
// command printed: Cline's update before its call, its permission
// request with id 0, its tool_call after the answer, rawInput.commands
// and rawOutput [{query,result,success}]; Codex's permission before any
// tool_call and its argv; Claude's adapter's terminal shown by Zed's
// _meta.terminal_output.
func TestACPRealFrames(t *testing.T) {
	cases := []struct {
		file  string
		uses  map[string]string // id -> tool name and input JSON
		want  map[string]string // id -> tool_result content and error flag
		order string            // the tool_use ids, in order
	}{
		{"cline-allow.acp", map[string]string{"call_fake_2": `Bash {"command":"echo hello-from-agent \u003e out.txt; ls"}`},
			map[string]string{"call_fake_2": `"out.txt" error=false`}, "call_fake_2"},
		{"cline-reject.acp", map[string]string{"call_fake_2": `Bash {"command":"echo hello-from-agent \u003e out.txt; ls"}`},
			map[string]string{"call_fake_2": `"Denied by the user." error=true`}, "call_fake_2"},
		{"cline-edit-commands.acp", map[string]string{
			"call_fake_2": `Write {"content":"hello\n","file_path":"/ws/new.txt"}`,
			"call_fake_4": `Bash {"command":"echo one \u003e one.txt; cat new.txt"}`},
			map[string]string{"call_fake_2": `"File created successfully at: /ws/new.txt" error=false`, "call_fake_4": `"hello" error=false`}, "call_fake_2,call_fake_4"},
		{"claude-meta-terminal.acp", map[string]string{"toolu_fake_3": `Bash {"command":"echo hello-from-agent \u003e out.txt; ls","description":"Write out.txt and list files"}`},
			map[string]string{"toolu_fake_3": `"out.txt" error=false`}, "toolu_fake_3"},
		{"codex-permission-first.acp", map[string]string{"call_fake_3": `Bash {"command":"echo hello-from-agent \u003e out.txt; ls"}`},
			map[string]string{"call_fake_3": `"out.txt" error=false`}, "call_fake_3"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			rec, err := os.ReadFile("testdata/acp-frames/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			out := replayACP(t, "acp", rec)
			for _, e := range emittest.Validate(out) {
				t.Errorf("conformance: %v", e)
			}
			got := readCalls(t, out)
			var order []string
			for _, e := range events(t, out) {
				if s := mustJSONString(e); strings.Contains(s, `"type":"tool_use"`) {
					for id := range c.uses {
						if strings.Contains(s, `"id":"`+id+`"`) {
							order = append(order, id)
						}
					}
				}
			}
			if strings.Join(order, ",") != c.order {
				t.Errorf("tool_uses in order %v, want %s", order, c.order)
			}
			for id, want := range c.uses {
				if u := got.uses[id]; len(u) != 1 || u[0] != want {
					t.Errorf("%s: tool_uses %q, want one: %s", id, u, want)
				}
				if r := got.results[id]; len(r) != 1 || r[0] != c.want[id] {
					t.Errorf("%s: tool_results %q, want one: %s", id, r, c.want[id])
				}
			}
			if len(got.uses) != len(c.uses) {
				t.Errorf("tool_uses for %d calls, want %d: %v", len(got.uses), len(c.uses), got.uses)
			}
			if t.Failed() {
				t.Logf("stdout:\n%s", out)
			}
		})
	}
}

// TestACPPermissionIDZero: a request with JSON-RPC id 0 (Cline's and
// Claude's adapter's first permission request) is a request, answered
// with id 0; a string id (Codex's) is answered with it.
func TestACPPermissionIDZero(t *testing.T) {
	for _, id := range []string{`0`, `"2299f2b7-4a42"`} {
		var out bytes.Buffer
		asked := false
		c := newACPConn(&out, func(method string, _ json.RawMessage, isRequest bool) (any, error) {
			asked = method == "session/request_permission" && isRequest
			return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}, nil
		})
		line := `{"jsonrpc":"2.0","id":` + id + `,"method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"c"},"options":[]}}`
		if err := (acpLines{c}).Line([]byte(line)); err != nil {
			t.Fatal(err)
		}
		var resp acpMessage
		if err := json.Unmarshal(out.Bytes(), &resp); err != nil || !asked || string(resp.ID) != id || resp.Result == nil {
			t.Errorf("id %s: asked %v, answered %s (%v)", id, asked, out.String(), err)
		}
	}
}

// TestACPInitializeOffersTerminal: initialize always offers yume-cli's
// terminal (and file system), so that an agent that runs commands through
// the client has their output captured.
func TestACPInitializeOffersTerminal(t *testing.T) {
	caps := clientCapabilities()
	fs, _ := caps["fs"].(map[string]any)
	if caps["terminal"] != true || fs["readTextFile"] != true || fs["writeTextFile"] != true {
		t.Errorf("clientCapabilities %v: want terminal and fs offered", caps)
	}
}

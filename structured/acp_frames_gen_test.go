package structured

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kballard/go-shellquote"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
)

// genShape is one generated ACP tool call: its frames, what its tool_use
// must say and its tool_result hold.
type genShape struct {
	id      string
	shape   string   // rawInput shape / rawOutput shape / order
	frames  []string // "update:…", "permission:…", "terminal:TERM" (yume-cli's terminal runs the call)
	command string   // the command the tool_use must show
	argv    []string // or: the argv its command must split into
	title   bool     // the command comes from the title (said in the description)
	output  string   // the tool_result content
	failed  bool     // the tool_result is an error
	terms   map[string]string
}

// genScripts are commands as a model writes them.
var genScripts = []string{
	"npm test", `grep -rn "TODO" src | head -5`, "ls -la && cat 'my file.txt'", `echo "it's $(date +%Y)" | tr a-z A-Z`,
	"go test ./... 2>&1 | tail -3", `python3 -c 'print("héllo")'`, "printf 'a\\nb\\n' > made.txt && echo wrote",
}

// genShellCall makes an execute call in one of the shapes and orders
// agents send, its output in one of the shapes they carry it in.
func genShellCall(r *rand.Rand, id string) genShape {
	g := genShape{id: id, terms: map[string]string{}}
	script := pick(r, genScripts)
	var input map[string]any
	var shapes []string
	switch r.IntN(10) {
	case 0:
		shapes, input, g.command = append(shapes, "command string"), map[string]any{"command": script, "cwd": "/ws"}, script
	case 1:
		wrap := pick(r, [][]string{{"/bin/bash", "-lc"}, {"sh", "-c"}, {"/bin/zsh", "-l", "-c"}, {"bash", "-ec"}})
		list := []any{}
		for _, w := range append(slices.Clone(wrap), script) {
			list = append(list, w)
		}
		shapes, input, g.command = append(shapes, "argv with a shell wrapper"), map[string]any{"command": list, "call_id": id}, script
	case 2:
		argv := pick(r, genArgvs)
		list := []any{}
		for _, w := range argv {
			list = append(list, w)
		}
		shapes, input, g.argv = append(shapes, "argv without a shell"), map[string]any{pick(r, []string{"command", "argv"}): list}, argv
	case 3:
		n := 1 + r.IntN(3)
		var cmds []any
		var parts []string
		for range n {
			s := pick(r, genScripts)
			cmds, parts = append(cmds, s), append(parts, s)
		}
		shapes, input, g.command = append(shapes, "commands array"), map[string]any{"commands": cmds}, strings.Join(parts, "; ")
	case 4:
		shapes, input, g.command = append(shapes, "cmd"), map[string]any{"cmd": script, "justification": "why"}, script
	case 5:
		shapes, input, g.command = append(shapes, "commandLine"), map[string]any{pick(r, []string{"commandLine", "command_line"}): script}, script
	case 6:
		argv := pick(r, genArgvs)
		args := []any{}
		for _, a := range argv[1:] {
			args = append(args, a)
		}
		shapes, input, g.argv = append(shapes, "program and args"), map[string]any{"command": argv[0], "args": args}, argv
	case 7:
		shapes, input, g.command = append(shapes, "a wrapper as one string"), map[string]any{"command": "/bin/bash -lc " + quoteWord(script)}, script
	default:
		shapes, g.command, g.title = append(shapes, "no input: the title"), script, true
	}
	// The title: never the command where the input has one.
	title := pick(r, []string{"Terminal", "Shell", "run_commands: " + g.command, "`" + g.command + "`", g.command})
	if g.title {
		title = pick(r, []string{"run_commands: ", "bash: ", "", "exec_command: "}) + g.command
		if strings.HasPrefix(title, g.command) && r.IntN(2) == 0 {
			title = "`" + g.command + "`"
		}
	}
	call := map[string]any{"toolCallId": id, "title": title, "kind": "execute", "status": "pending"}
	if input != nil {
		call["rawInput"] = input
	}
	with := func(base map[string]any, kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	upd := func(m map[string]any) { g.frames = append(g.frames, "update:"+mustJSON(m)) }
	perm := func() { g.frames = append(g.frames, "permission:"+mustJSON(call)) }
	// The output, in the shape the agent carries it in.
	out := pick(r, genOutputs)
	g.output = strings.TrimRight(out, "\n")
	end := map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed"}
	var before []map[string]any // updates while it runs
	q := g.command
	switch r.IntN(14) {
	case 0:
		shapes, end["rawOutput"] = append(shapes, "rawOutput string"), out
	case 1:
		shapes, end["rawOutput"] = append(shapes, "{output}"), map[string]any{"output": out}
	case 2:
		shapes, end["rawOutput"] = append(shapes, "{stdout,stderr,exit_code}"), map[string]any{"stdout": out, "stderr": "", "exit_code": 0.0}
	case 3:
		shapes, end["rawOutput"] = append(shapes, "[{result}]"), []any{map[string]any{"query": q, "result": out, "success": true}}
	case 4:
		shapes, end["rawOutput"] = append(shapes, "[{text}]"), []any{map[string]any{"type": "text", "text": out}}
	case 5:
		shapes, end["content"] = append(shapes, "content blocks"), []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "```console\n" + out + "\n```"}}}
	case 6:
		shapes = append(shapes, "terminal content, output in _meta")
		term := []any{map[string]any{"type": "terminal", "terminalId": id}}
		call["content"] = term
		before = append(before, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "_meta": map[string]any{"terminal_output": map[string]any{"terminal_id": id, "data": out}}})
		end["_meta"] = map[string]any{"terminal_exit": map[string]any{"terminal_id": id, "exit_code": 0.0, "signal": nil}}
	case 7:
		shapes = append(shapes, "terminal content, yume-cli's terminal")
		term := "term_" + id
		g.terms[term] = g.output
		before = append(before, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "in_progress", "content": []any{map[string]any{"type": "terminal", "terminalId": term}}})
		end["content"] = []any{map[string]any{"type": "terminal", "terminalId": term}}
	case 8:
		shapes = append(shapes, "yume-cli's terminal, never shown")
		term := "term_" + id
		g.terms[term] = g.output
		g.frames = append(g.frames, "terminal:"+term) // placed after the permission below
	case 9:
		shapes = append(shapes, "failure: {error} as a JSON string")
		end["status"], end["rawOutput"] = "failed", `{"error":"User rejected the tool call -- NOT a tool or system failure."}`
		g.output, g.failed = "User rejected the tool call -- NOT a tool or system failure.", true
	case 10:
		shapes = append(shapes, "failure: [{success:false}]")
		end["status"], end["rawOutput"] = "failed", []any{map[string]any{"query": q, "result": out, "error": "Command failed: exit 2", "success": false}}
		g.output, g.failed = strings.TrimLeft(g.output+"\nCommand failed: exit 2", "\n"), true
	case 11:
		shapes = append(shapes, "failure: exit code")
		end["rawOutput"] = map[string]any{"stdout": out, "stderr": "", "exit_code": 2.0}
		g.output, g.failed = strings.TrimLeft(g.output+"\nexit code 2", "\n"), true
	case 12:
		shapes = append(shapes, "failure: _meta exit code")
		call["content"] = []any{map[string]any{"type": "terminal", "terminalId": id}}
		before = append(before, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "_meta": map[string]any{"terminal_output": map[string]any{"terminal_id": id, "data": out}}})
		end["_meta"] = map[string]any{"terminal_exit": map[string]any{"terminal_id": id, "exit_code": 1.0, "signal": nil}}
		g.output, g.failed = strings.TrimLeft(g.output+"\nexit code 1", "\n"), true
	case 13:
		shapes = append(shapes, "terminal content, _meta exit only, output in rawOutput (Codex)")
		call["content"] = []any{map[string]any{"type": "terminal", "terminalId": id}}
		end["_meta"] = map[string]any{"terminal_exit": map[string]any{"terminal_id": id, "exit_code": 0.0, "signal": nil}}
		end["rawOutput"] = map[string]any{"call_id": id, "stdout": out, "stderr": "", "aggregated_output": out, "exit_code": 0.0, "formatted_output": out, "status": "completed"}
	}
	if g.output == "" && !g.failed {
		g.output = "completed"
	}
	var termFrame []string
	if len(g.frames) > 0 {
		termFrame, g.frames = g.frames, nil
	}
	// The order the frames come in.
	asks := r.IntN(2) == 0
	switch r.IntN(5) {
	case 0:
		shapes = append(shapes, "in order")
		upd(with(call, "sessionUpdate", "tool_call"))
		if asks {
			perm()
		}
	case 1:
		shapes = append(shapes, "update before call (Cline)")
		upd(with(call, "sessionUpdate", "tool_call_update"))
		if asks {
			perm()
		}
		upd(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "in_progress"})
		upd(with(call, "sessionUpdate", "tool_call"))
	case 2:
		shapes = append(shapes, "call after permission (Codex)")
		asks = true
		perm()
		upd(with(call, "sessionUpdate", "tool_call", "status", "in_progress"))
	case 3:
		shapes = append(shapes, "input in a later update (Claude)")
		upd(map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": "Terminal", "kind": "execute", "status": "pending", "rawInput": map[string]any{}})
		upd(with(call, "sessionUpdate", "tool_call_update", "status", nil))
		if asks {
			perm()
		}
	case 4:
		shapes = append(shapes, "end before call")
		asks = false
		g.frames = append(g.frames, termFrame...)
		for _, b := range before {
			upd(b)
		}
		upd(end)
		upd(with(call, "sessionUpdate", "tool_call"))
		g.shape = strings.Join(shapes, " / ")
		return g
	}
	if !asks {
		shapes = append(shapes, "unasked")
	}
	g.frames = append(g.frames, termFrame...)
	for _, b := range before {
		upd(b)
	}
	upd(end)
	g.shape = strings.Join(shapes, " / ")
	return g
}

// runShapes runs generated calls' frames, interleaved, through the ACP
// translator as a session would: a permission request's tool_use
// written as it is asked, yume-cli's terminals' output known.
func runShapes(t *testing.T, frames []string, terms map[string]string) []byte {
	t.Helper()
	var out bytes.Buffer
	w := emit.NewWriter(&out, emit.Config{SessionID: "sess-gen", Model: "m", Cwd: "/ws"})
	tr := &acpTranslator{turn: newTurn(w, prov("acp"), "default"), agent: "agent"}
	tr.terminalOutput = func(id string) (string, bool, bool) { s, ok := terms[id]; return s, false, ok }
	if err := tr.init("s-1", prov("acp").Tools); err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		kind, body, _ := strings.Cut(f, ":")
		switch kind {
		case "permission":
			var u acpUpdate
			if err := json.Unmarshal([]byte(body), &u); err != nil {
				t.Fatal(err)
			}
			if !tr.tools.seen(u.ToolCallID) {
				if err := tr.use(u); err != nil {
					t.Fatal(err)
				}
			}
		case "terminal":
			tr.terminalFor(strings.TrimPrefix(body, "term_"), body)
		default:
			if err := tr.update([]byte(`{"sessionId":"s-1","update":` + body + `}`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tr.stop("end_turn"); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// interleave merges the calls' frames in a random order that keeps each
// call's own order.
func interleave(r *rand.Rand, calls []genShape) []string {
	next := make([]int, len(calls))
	var out []string
	for {
		var open []int
		for i, c := range calls {
			if next[i] < len(c.frames) {
				open = append(open, i)
			}
		}
		if len(open) == 0 {
			return out
		}
		i := pick(r, open)
		out = append(out, calls[i].frames[next[i]])
		next[i]++
	}
}

// TestACPToolCallFrames: generated, seeded sequences of ACP tool calls
// (YUME_SEED repeats one): one to three calls, interleaved, each in one
// of the orders agents send (in order, an update before its tool_call,
// the tool_call after its permission, the input in a later update, the
// end before the tool_call), with its command in one of the rawInput
// shapes (a string, an argv with or without a shell wrapper, a commands
// array, cmd/argv/commandLine keys, program and args, nothing but the
// title) and its output in one of the usual shapes (a string, {output},
// {stdout,stderr,exit_code}, [{result}], [{text}], content blocks,
// terminal content with the output in _meta or in yume-cli's terminal, a
// terminal yume-cli ran that no update shows, failures). Each call is one
// tool_use with the command a person would type (from the title only
// when the input names none, and then said so) and one tool_result with
// what it printed.
func TestACPToolCallFrames(t *testing.T) {
	r := shapeSeed(t)
	n := 600
	if testing.Short() {
		n = 150
	}
	seen := map[string]int{}
	for i := range n {
		var calls []genShape
		terms := map[string]string{}
		for j := range 1 + r.IntN(3) {
			g := genShellCall(r, fmt.Sprintf("call_%d_%d", i, j))
			calls = append(calls, g)
			for k, v := range g.terms {
				terms[k] = v
			}
			for _, s := range strings.Split(g.shape, " / ") {
				seen[s]++
			}
		}
		frames := interleave(r, calls)
		out := runShapes(t, frames, terms)
		got := readCalls(t, out)
		for _, e := range emittest.Validate(out) {
			t.Errorf("%d: conformance: %v", i, e)
		}
		for _, g := range calls {
			fail := func(format string, args ...any) {
				t.Errorf("%d %s (%s): %s\nframes:\n%s\nstdout:\n%s", i, g.id, g.shape, fmt.Sprintf(format, args...), strings.Join(frames, "\n"), out)
			}
			uses, results := got.uses[g.id], got.results[g.id]
			if len(uses) != 1 || len(results) != 1 {
				fail("%d tool_uses and %d tool_results, want one each", len(uses), len(results))
				continue
			}
			name, inJSON, _ := strings.Cut(uses[0], " ")
			var in map[string]any
			_ = json.Unmarshal([]byte(inJSON), &in)
			cmd, _ := in["command"].(string)
			desc, _ := in["description"].(string)
			switch {
			case name != "Bash":
				fail("tool %s, want Bash", name)
			case g.argv != nil:
				if words, err := shellquote.Split(cmd); err != nil || !slices.Equal(words, g.argv) {
					fail("command %q splits into %q (%v), want the argv %q", cmd, words, err, g.argv)
				}
			case cmd != g.command:
				fail("command %q, want %q", cmd, g.command)
			}
			if saysTitle := strings.Contains(desc, "title"); saysTitle != g.title {
				fail("description %q: the command from the title is %v, said %v", desc, g.title, saysTitle)
			}
			for k := range in {
				if !slices.Contains([]string{"command", "description", "approved_by", "dangerous"}, k) {
					fail("input has the agent's field %q", k)
				}
			}
			if want := fmt.Sprintf("%q error=%v", g.output, g.failed); results[0] != want {
				fail("tool_result %s, want %s", results[0], want)
			}
		}
	}
	t.Logf("shapes: %v", seen)
}

package structured

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kballard/go-shellquote"
)

// shapeSeed is the seed of a generated test, printed; YUME_SEED repeats it.
func shapeSeed(t *testing.T) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("YUME_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (YUME_SEED=%d repeats it)", seed, seed)
	return rand.New(rand.NewPCG(seed, 0))
}

// genCall is one generated ACP tool call: the frames an agent sends, and
// what Yume must see of it.
type genCall struct {
	shape    string
	frames   []string // session/update "update" objects and "permission:" toolCall objects, in order
	terms    map[string]string
	wantName string
	// check reports what is wrong with the tool_use input.
	check      func(in map[string]any) string
	wantOutput string
}

// genCommands are shell scripts as a model writes them: quotes, pipes,
// redirections, newlines in printf's argument, unicode.
var genCommands = []string{
	"npm test",
	"printf 'alpha\\nbeta\\n' > made.txt && echo wrote made.txt && seq 1 40",
	`grep -rn "TODO" src | head -5`,
	"ls -la && cat 'my file.txt'",
	`echo "it's $(date +%Y)" | tr a-z A-Z`,
	"go test ./... 2>&1 | tail -3",
	"cd sub && make -j2 VERBOSE=1",
	`python3 -c 'print("héllo wörld")'`,
}

// genArgvs are commands an agent passes as an argv (no shell).
var genArgvs = [][]string{
	{"git", "commit", "-m", "fix: two words"},
	{"ls", "-la", "/tmp"},
	{"rg", "--json", "a|b", "src dir"},
	{"echo", "it's", "$HOME", ""},
	{"node", "-e", "console.log(1+1)"},
}

// genOutputs are what commands print.
var genOutputs = []string{
	"wrote made.txt\n1\n2\n3",
	"ok  \tgithub.com/x/y\t0.2s\n",
	"",
	"héllo wörld\n",
	"{\"a\": 1}\n", // output that is itself JSON stays as printed
	"line with ``` inside\nnext",
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// genExecute makes a shell call in one of the shapes agents send.
func genExecute(r *rand.Rand, id string) genCall {
	g := genCall{wantName: "Bash", terms: map[string]string{}}
	script := pick(r, genCommands)
	var argv []string
	var input map[string]any
	title := script
	switch r.IntN(7) {
	case 0:
		g.shape, input = "command string", map[string]any{"command": script, "description": "do it", "cwd": "/ws"}
	case 1:
		g.shape = "Codex argv with its shell wrapper"
		input = map[string]any{"call_id": id, "turn_id": "t-1", "started_at_ms": 1795705758463.0,
			"command": []any{"/bin/bash", "-lc", script}, "cwd": "/ws", "parsed_cmd": []any{map[string]any{"type": "unknown", "cmd": script}}, "source": "agent"}
	case 2:
		g.shape, input = "a wrapper as one string", map[string]any{"command": "/usr/bin/sh -c " + quoteWord(script)}
	case 3:
		g.shape = "an argv without a shell"
		argv = pick(r, genArgvs)
		list := make([]any, len(argv))
		for i, a := range argv {
			list[i] = a
		}
		input, title = map[string]any{"command": list}, strings.Join(argv, " ")
	case 4:
		g.shape, input = "cmd", map[string]any{"cmd": script, "sandbox_permissions": "require_escalated"}
	case 5:
		g.shape, title = "content only: the title is the command", "`"+script+"`"
	case 6:
		g.shape = "program and args"
		argv = pick(r, genArgvs)
		args := make([]any, len(argv)-1)
		for i, a := range argv[1:] {
			args[i] = a
		}
		input, title = map[string]any{"command": argv[0], "args": args}, "Run "+argv[0]
	}
	g.check = func(in map[string]any) string {
		cmd, _ := in["command"].(string)
		if argv != nil {
			words, err := shellquote.Split(cmd)
			if err != nil || !slices.Equal(words, argv) {
				return fmt.Sprintf("command %q splits as a shell would into %q (%v), want the argv %q", cmd, words, err, argv)
			}
		} else if cmd != script {
			return fmt.Sprintf("command %q, want %q", cmd, script)
		}
		for k := range in {
			if !slices.Contains([]string{"command", "description", "timeout", "approved_by", "dangerous"}, k) {
				return fmt.Sprintf("input has the agent's field %q", k)
			}
		}
		return ""
	}
	kind, name := "execute", ""
	if r.IntN(5) == 0 {
		kind, name = "other", pick(r, []string{"Bash", "mcp__acp__Bash", "run_shell_command"})
	}
	announce := map[string]any{"sessionUpdate": "tool_call", "toolCallId": id, "title": pick(r, []string{"bash", "Terminal", "Shell", title}), "kind": kind, "status": "pending"}
	if name != "" {
		announce["name"] = name
	}
	if r.IntN(2) == 0 && input != nil {
		announce["rawInput"] = map[string]any{}
		g.frames = append(g.frames, mustJSON(announce))
		upd := map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "title": title, "rawInput": input, "status": "in_progress"}
		g.frames = append(g.frames, mustJSON(upd))
	} else {
		announce["title"] = title
		if input != nil {
			announce["rawInput"] = input
		}
		g.frames = append(g.frames, mustJSON(announce))
	}
	if r.IntN(2) == 0 {
		pc := map[string]any{"toolCallId": id, "title": title, "kind": kind}
		if input != nil {
			pc["rawInput"] = input
		}
		g.frames = append(g.frames, "permission:"+mustJSON(pc))
	}
	out := pick(r, genOutputs)
	g.wantOutput = strings.TrimRight(out, "\n")
	done := map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed"}
	switch r.IntN(7) {
	case 0:
		done["content"] = []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": out}}}
	case 1:
		done["content"] = []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "```" + pick(r, []string{"console", "sh", ""}) + "\n" + out + "\n```"}}}
		done["rawOutput"] = out
	case 2:
		done["rawOutput"] = out
	case 3:
		done["rawOutput"] = map[string]any{"call_id": id, "process_id": "48459", "turn_id": "t-1", "completed_at_ms": 1795705815020.0,
			"stdout": out, "stderr": "", "aggregated_output": out, "exit_code": 0.0, "formatted_output": out, "status": "completed"}
	case 4:
		done["rawOutput"] = map[string]any{"output": map[string]any{"stdout": out, "stderr": ""}, "metadata": map[string]any{"exit": 0.0}}
	case 5:
		done["rawOutput"] = map[string]any{"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": out}}}, "isError": false}
	case 6:
		term := "term-" + id
		g.terms[term] = strings.TrimRight(out, "\n")
		running := map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "in_progress", "content": []any{map[string]any{"type": "terminal", "terminalId": term}}}
		g.frames = append(g.frames, mustJSON(running))
		done["content"] = []any{map[string]any{"type": "terminal", "terminalId": term}}
	}
	if g.wantOutput == "" {
		g.wantOutput = "completed"
	}
	g.frames = append(g.frames, mustJSON(done))
	return g
}

// genEdit makes a file change in one of the shapes agents send.
func genEdit(r *rand.Rand, id string) genCall {
	path := "/ws/" + pick(r, []string{"a.txt", "src/main.go", "dir with space/n.md"})
	g := genCall{terms: map[string]string{}, wantOutput: "done"}
	var update map[string]any
	switch r.IntN(5) {
	case 0:
		g.shape, g.wantName = "a diff of a new file", "Write"
		update = map[string]any{"kind": "edit", "title": "Write " + path, "content": []any{map[string]any{"type": "diff", "path": path, "oldText": nil, "newText": "hi\n"}}}
		g.check = wantInput(map[string]any{"file_path": path, "content": "hi\n"})
	case 1:
		g.shape, g.wantName = "a diff of a change", "Edit"
		update = map[string]any{"kind": "edit", "title": "Edit", "locations": []any{map[string]any{"path": path}},
			"content": []any{map[string]any{"type": "diff", "path": path, "oldText": "a\nb\nc\n", "newText": "a\nB\nc\n"}}}
		g.check = wantInput(map[string]any{"file_path": path, "old_string": "b\n", "new_string": "B\n"})
	case 2:
		g.shape, g.wantName = "the model's strings, path spelt filePath", "Edit"
		update = map[string]any{"kind": "edit", "title": "edit", "rawInput": map[string]any{"filePath": path, "oldString": "x", "newString": "y"}}
		g.check = wantInput(map[string]any{"file_path": path, "old_string": "x", "new_string": "y"})
	case 3:
		g.shape, g.wantName = "a write with a location and content", "Write"
		update = map[string]any{"kind": "edit", "title": "write", "locations": []any{map[string]any{"path": path}}, "rawInput": map[string]any{"content": "body\n"}}
		g.check = wantInput(map[string]any{"file_path": path, "content": "body\n"})
	case 4:
		g.shape, g.wantName = "a diff with no kind", "Write"
		update = map[string]any{"title": "Creating " + path, "content": []any{map[string]any{"type": "diff", "path": path, "newText": "new\n"}}}
		g.check = wantInput(map[string]any{"file_path": path, "content": "new\n"})
	}
	update["sessionUpdate"], update["toolCallId"], update["status"] = "tool_call", id, "pending"
	g.frames = append(g.frames, mustJSON(update))
	g.frames = append(g.frames, mustJSON(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed",
		"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "done"}}}}))
	return g
}

// genOther makes a read, a search or a call of a shape yume-cli does not know.
func genOther(r *rand.Rand, id string) genCall {
	g := genCall{terms: map[string]string{}, wantOutput: "ok"}
	var update map[string]any
	switch r.IntN(3) {
	case 0:
		g.shape, g.wantName = "a read with only a location", "Read"
		update = map[string]any{"kind": "read", "title": "Read file", "locations": []any{map[string]any{"path": "/ws/r.txt", "line": 3.0}}}
		g.check = wantInput(map[string]any{"file_path": "/ws/r.txt"})
	case 1:
		g.shape, g.wantName = "a glob", "Glob"
		update = map[string]any{"kind": "search", "title": "Find", "rawInput": map[string]any{"glob": "**/*.go"}}
		g.check = wantInput(map[string]any{"pattern": "**/*.go"})
	case 2:
		g.shape, g.wantName = "an unknown shape", "Tool"
		raw := map[string]any{"frob": 3.0, "nested": map[string]any{"x": "y"}}
		update = map[string]any{"kind": "other", "title": "Frobnicate the widget", "rawInput": raw}
		g.check = wantInput(map[string]any{"description": "Frobnicate the widget", "raw_input": raw})
	}
	update["sessionUpdate"], update["toolCallId"], update["status"] = "tool_call", id, "pending"
	g.frames = append(g.frames, mustJSON(update))
	g.frames = append(g.frames, "permission:"+mustJSON(map[string]any{"toolCallId": id}))
	g.frames = append(g.frames, mustJSON(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id, "status": "completed", "rawOutput": map[string]any{"output": "ok\n"}}))
	return g
}

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
)

// fakeClaude plays Claude Code's JSON mode with its stdio permission
// relay, when YUME_FAKE_CLAUDE names the command it wants to run: it
// asks yume-cli (can_use_tool) and runs the command only if allowed.
func fakeClaude(command string) int {
	if len(os.Args) > 1 && (os.Args[1] == "--version" || os.Args[1] == "--help") {
		fmt.Println("2.1.332 (Claude Code)")
		return 0
	}
	if f := os.Getenv("YUME_FAKE_CLAUDE_ARGS"); f != "" {
		// Where the test wants to see the command line it was started with.
		b, _ := json.Marshal(os.Args[1:])
		_ = os.WriteFile(f, b, 0o600)
	}
	in := bufio.NewReader(os.Stdin)
	read := func() map[string]any {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return nil
		}
		var m map[string]any
		_ = json.Unmarshal(line, &m)
		return m
	}
	say := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
	}
	if read() == nil { // the user's prompt
		return 2
	}
	input := map[string]any{"command": command}
	say(map[string]any{"type": "system", "subtype": "init", "session_id": "c-1", "tools": []string{"Bash"}})
	if msg := os.Getenv("YUME_FAKE_CLAUDE_FAIL"); msg != "" {
		// The turn fails as Claude's does when the API refuses it.
		say(map[string]any{"type": "result", "subtype": "error_during_execution", "is_error": true, "result": msg,
			"usage": map[string]any{"input_tokens": 5, "output_tokens": 0}})
		return 1
	}
	say(map[string]any{"type": "assistant", "message": map[string]any{"content": []any{
		map[string]any{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": input}}}})
	say(map[string]any{"type": "control_request", "request_id": "r1", "request": map[string]any{
		"subtype": "can_use_tool", "tool_name": "Bash", "input": input, "tool_use_id": "toolu_1"}})
	behavior := ""
	if resp := read(); resp != nil {
		r, _ := resp["response"].(map[string]any)
		rr, _ := r["response"].(map[string]any)
		behavior, _ = rr["behavior"].(string)
	}
	output, isError := "denied", true
	if behavior == "allow" {
		out, err := exec.Command("sh", "-c", command).CombinedOutput()
		output, isError = string(out)+"(ran)", err != nil
	}
	say(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": output, "is_error": isError}}}})
	say(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": "Done.",
		"usage": map[string]any{"input_tokens": 3, "output_tokens": 2}})
	for read() != nil { // Claude waits for stdin to close
	}
	return 0
}

//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/yume-cli/yume-cli/internal/testchild"
)

// The test binary plays the programs around yume-cli (testchild): the
// provider CLIs it drives over pipes and the GUI's process that starts it
// (here), and siblings that load the machine (load_linux_test.go). Each
// fake CLI writes its pid to agent.pid in its working directory (yume-cli's
// --cwd) once it is at work.
var childModes = map[string]testchild.Mode{
	"gemini-json": fakeGeminiJSON,
	"acp-silent":  func([]string) int { return fakeACP(false) },
	"acp-ask":     func([]string) int { return fakeACP(true) },
	"parent":      fakeParent,
}

func init() { testchild.Run(childModes) }

// fakeGeminiJSON is Gemini CLI in --output-format stream-json: it starts
// its turn and then says nothing, as while it retries a 429.
func fakeGeminiJSON(args []string) int {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "--help") {
		fmt.Println("0.30.0") // the version probe, and the help probe
		return 0
	}
	fmt.Println(`{"type":"init","timestamp":"2025-01-01T00:00:00Z","session_id":"g-1","model":"m"}`)
	writePid()
	sleepForever()
	return 0
}

// fakeACP is an ACP agent. Its prompt either goes silent for good, deaf
// to SIGTERM, SIGINT and SIGHUP (a CLI retrying its model, in a runtime
// that ignores them), or asks to run `touch approved` and runs it if
// allowed (a question pending).
func fakeACP(ask bool) int {
	if !ask {
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	send := func(v map[string]any) {
		v["jsonrpc"] = "2.0"
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
	}
	for in.Scan() {
		var m map[string]any
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		id := m["id"]
		switch m["method"] {
		case "initialize":
			send(map[string]any{"id": id, "result": map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}}})
		case "session/new":
			send(map[string]any{"id": id, "result": map[string]any{"sessionId": "s-1"}})
		case "session/prompt":
			writePid()
			if !ask {
				continue // silent from now on; session/cancel too goes unanswered
			}
			call := map[string]any{"toolCallId": "c1", "title": "touch approved", "kind": "execute", "rawInput": map[string]any{"command": "touch approved"}}
			send(map[string]any{"id": 90, "method": "session/request_permission", "params": map[string]any{"sessionId": "s-1", "toolCall": call,
				"options": []any{map[string]any{"optionId": "once", "kind": "allow_once", "name": "Allow once"},
					map[string]any{"optionId": "reject", "kind": "reject_once", "name": "Reject"}}}})
		default:
			if r, ok := m["result"].(map[string]any); ok && fmt.Sprint(m["id"]) == "90" {
				if o, _ := r["outcome"].(map[string]any); o["optionId"] == "once" {
					_ = os.WriteFile("approved", nil, 0o600)
				}
			}
		}
	}
	return 0
}

// fakeParent is the GUI's process: it starts args (yume-cli) on its own
// standard streams, writes the child's pid to the file YUME_TEST_PIDFILE
// names, and waits for it. The fake CLI yume-cli starts, if any, is the
// mode YUME_TEST_AGENT names.
func fakeParent(args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "YUME_TEST_CHILD="+os.Getenv("YUME_TEST_AGENT"))
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	_ = os.WriteFile(os.Getenv("YUME_TEST_PIDFILE"), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o600)
	_ = cmd.Wait()
	return 0
}

func writePid() {
	_ = os.WriteFile("agent.pid", []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600)
}

func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// TestLivePersistent: one yume-cli process (start --session-id, no
// prompt), prompts as user frames. Two turns, the second seeing the first;
// a turn interrupted at its question, then a turn that still works; a
// frame in the wrong state gets an error and changes nothing; stdin's end
// ends the session with exit 0. In the TUI the program stays open.
func TestLivePersistent(t *testing.T) {
	live(t)
	forEachMode(t, func(t *testing.T, h *home, provider, mode string) {
		word := "kiwi-" + provider + "-" + mode
		// Turn 3 is interrupted: in the TUI at its question, in JSON
		// mode (which asks nothing in most CLIs) while the model streams.
		third := fakemodel.Reply{Text: "Running it.", ToolCalls: []fakemodel.ToolCall{shellCall(provider, oneCommand, "Write made.txt")}}
		busy := func(e event) bool {
			req, _ := e["request"].(map[string]any)
			return e.str("type") == "control_request" && req["subtype"] == "can_use_tool"
		}
		if mode == "json" {
			third = fakemodel.Reply{Text: "Thinking very hard.", Stall: true}
		}
		h.srv.SetScript(fakemodel.Script{Replies: []fakemodel.Reply{
			{Text: "Noted the word."},
			{Text: "The word was " + word + "."},
			third,
			{Text: "Still here."},
		}})
		s := startSession(t, h, "start", "--session-id", "chat-"+provider+"-"+mode, "--mode", mode)
		s.send(map[string]any{"type": "interrupt"}) // no turn runs: an error, nothing changes
		s.waitFor(t, "the interrupt refused", func(e event) bool { return e.str("subtype") == "error" })

		s.send(map[string]any{"type": "user", "content": "remember the word " + word})
		if r := s.waitFor(t, "turn 1's result", isResult); r["is_error"] == true {
			t.Fatalf("turn 1: %v", r)
		}
		before := len(h.srv.AgentRequests())
		s.send(map[string]any{"type": "user", "content": "which word did I ask you to remember?"})
		if r := s.waitFor(t, "turn 2's result", isResult); r["is_error"] == true {
			t.Fatalf("turn 2: %v", r)
		}
		reqs := h.srv.AgentRequests()[before:]
		if len(reqs) == 0 || !reqs[len(reqs)-1].Contains(word) || !reqs[len(reqs)-1].Contains("Noted the word.") {
			t.Errorf("turn 2's request does not carry turn 1")
		}

		asked := len(h.srv.AgentRequests())
		s.send(map[string]any{"type": "user", "content": "make the file"})
		if mode == "json" {
			ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
			_, err := h.srv.WaitAgentRequests(ctx, asked+1) // the model is answering (and stalls)
			cancel()
			if err != nil {
				t.Fatalf("turn 3 never reached the model: %v", err)
			}
		} else {
			s.waitFor(t, "turn 3's question", busy)
		}
		s.send(map[string]any{"type": "user", "content": "too early"}) // a turn runs: an error
		s.waitFor(t, "the early prompt refused", func(e event) bool {
			return e.str("subtype") == "error" && strings.Contains(e.str("message"), "a turn is running")
		})
		s.send(map[string]any{"type": "interrupt"})
		if r := s.waitFor(t, "turn 3's result", isResult); r["is_error"] != true {
			t.Errorf("an interrupted turn ended without an error result: %v", r)
		}
		s.send(map[string]any{"type": "user", "content": "are you still there?"})
		if r := s.waitFor(t, "turn 4's result", isResult); r["is_error"] == true {
			t.Errorf("the turn after an interrupt failed: %v", r)
		}
		if code := s.close(t); code != 0 {
			t.Errorf("exit %d at stdin's end, want 0", code)
		}
		inits, results := 0, 0
		for _, e := range s.events {
			if e.str("subtype") == "init" {
				inits++
			}
			if isResult(e) {
				results++
			}
		}
		if inits != 1 || results != 4 {
			t.Errorf("%d inits and %d results; want 1 and 4", inits, results)
		}
		for _, p := range emittest.Validate(s.raw.Bytes()) {
			t.Errorf("conformance: %v", p)
		}
		if sess := h.storedSession(t, "chat-"+provider+"-"+mode); len(sess.History) < 7 { // 4 prompts, 3 answers (turn 3 was interrupted)
			t.Errorf("stored history has %d entries after 4 turns", len(sess.History))
		}
	})
}

func isResult(e event) bool { return e.str("type") == "result" }

// session is a yume-cli process fed frame by frame.
type session struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan event
	events []event
	raw    bytes.Buffer
	stderr bytes.Buffer
	cancel context.CancelFunc
	h      *home
}

func startSession(t *testing.T, h *home, args ...string) *session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*runTimeout)
	s := &session{lines: make(chan event, 256), cancel: cancel, h: h}
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	args = append(args, "--provider", h.provider, "--model", h.sb.Model, "--cwd", h.sb.Workspace,
		"--output-format", "stream-json", "--verbose", "--trace-file", trace)
	s.cmd = exec.CommandContext(ctx, yumeBin, args...)
	s.cmd.Env = append(interactiveEnv(h.sb.Env), "YUME_HOME="+filepath.Join(h.sb.Home, ".yume"))
	s.cmd.Dir = h.sb.Workspace
	s.cmd.Stderr = &s.stderr
	s.stdin, _ = s.cmd.StdinPipe()
	stdout, _ := s.cmd.StdoutPipe()
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			var ev event
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				ev = event{"type": "not-json", "line": sc.Text()}
			}
			s.lines <- ev
			s.raw.Write(append(sc.Bytes(), '\n')) // read by the test only after lines closes
		}
	}()
	t.Cleanup(func() {
		cancel()
		if t.Failed() {
			b, _ := os.ReadFile(trace)
			t.Logf("stderr:\n%s\ntrace, without rule lines (last 20 KB):\n%s\nlast screen:\n%s",
				s.stderr.String(), tail(withoutRules(string(b)), 20<<10), lastScreen(string(b)))
			for _, e := range s.events {
				b, _ := json.Marshal(e)
				t.Logf("%s", b)
			}
		}
	})
	return s
}

func (s *session) send(frame any) {
	b, _ := json.Marshal(frame)
	_, _ = s.stdin.Write(append(b, '\n'))
}

// waitFor reads events until one matches, failing the test at the time
// bound or at the stream's end.
func (s *session) waitFor(t *testing.T, what string, match func(event) bool) event {
	t.Helper()
	timeout := time.After(runTimeout)
	for {
		select {
		case e, ok := <-s.lines:
			if !ok {
				t.Fatalf("the stream ended before %s", what)
			}
			s.events = append(s.events, e)
			if e.str("type") == "not-json" {
				t.Errorf("stdout line is not JSON: %q", e.str("line"))
			}
			if match(e) {
				return e
			}
		case <-timeout:
			t.Fatalf("no %s within %v", what, runTimeout)
		}
	}
}

// close ends stdin, reads the rest and returns the exit code.
func (s *session) close(t *testing.T) int {
	t.Helper()
	_ = s.stdin.Close()
	for e := range s.lines {
		s.events = append(s.events, e)
	}
	err := s.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Errorf("yume-cli: %v", err)
	}
	return 0
}

package structured

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
)

// Live tests run the real CLIs against the fake model server. They need
// YUME_E2E=1 and the CLIs installed under .e2e/npm (see e2eBin).

// e2eBin returns the installed CLI for provider or skips the test.
func e2eBin(t *testing.T, provider string) (bin, dir string) {
	t.Helper()
	if os.Getenv("YUME_E2E") == "" {
		t.Skip("live CLI test: set YUME_E2E=1 after `npm install --prefix .e2e/npm @github/copilot @anthropic-ai/claude-code @google/gemini-cli @openai/codex`")
	}
	dir, err := filepath.Abs("../.e2e/npm/node_modules/.bin")
	if err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(dir, provider)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("YUME_E2E=1 but %s is missing: run npm install --prefix .e2e/npm (see e2eBin)", bin)
	}
	return bin, dir
}

// shellCall is the provider's own shell tool asking to create a file.
func shellCall(provider, command string) fakemodel.ToolCall {
	switch provider {
	case "claude":
		return fakemodel.ToolCall{ID: "toolu_e2e_1", Name: "Bash", Args: map[string]string{"command": command, "description": "create a file"}}
	case "gemini":
		return fakemodel.ToolCall{Name: "run_shell_command", Args: map[string]string{"command": command, "description": "create a file"}}
	case "codex":
		return fakemodel.ToolCall{Name: "exec_command", Args: map[string]string{"cmd": command}}
	}
	return fakemodel.ToolCall{Name: "bash", Args: map[string]string{"command": command, "description": "create a file"}}
}

// lineTap collects stdout and hands every control_request to gui.
type lineTap struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	part []byte
	gui  func(line map[string]any)
}

func (l *lineTap) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.buf.Write(p)
	l.part = append(l.part, p...)
	var lines [][]byte
	for {
		i := bytes.IndexByte(l.part, '\n')
		if i < 0 {
			break
		}
		lines = append(lines, append([]byte(nil), l.part[:i]...))
		l.part = l.part[i+1:]
	}
	l.mu.Unlock()
	for _, line := range lines {
		var m map[string]any
		if json.Unmarshal(line, &m) == nil && l.gui != nil {
			l.gui(m)
		}
	}
	return len(p), nil
}

func (l *lineTap) bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]byte(nil), l.buf.Bytes()...)
}

// live is one live run's setup and outcome.
type live struct {
	provider, mode, perm string
	approve              *bool // GUI answer to can_use_tool; nil = no control channel
	replies              []fakemodel.Reply
	repeatLast           bool
	ctx                  context.Context
	interruptAfter       int // cancel the run once this many agent requests arrived

	out     []byte
	err     error
	sandbox *offline.Sandbox
	server  *fakemodel.Server
	stderr  string
}

func (lv *live) run(t *testing.T) {
	t.Helper()
	bin, dir := e2eBin(t, lv.provider)
	srv, err := fakemodel.New(fakemodel.Script{Replies: lv.replies, RepeatLast: lv.repeatLast})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	sb, err := offline.Setup(lv.provider, t.TempDir(), srv.URL(), dir)
	if err != nil {
		t.Fatal(err)
	}
	lv.sandbox, lv.server = sb, srv
	ctx := lv.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	if lv.interruptAfter > 0 {
		// Interrupt once the model is busy answering (a stalled reply).
		go func() {
			if _, err := srv.WaitAgentRequests(ctx, lv.interruptAfter); err == nil {
				cancel()
			}
		}()
	}
	var controls chan emit.Control
	tap := &lineTap{}
	if lv.approve != nil {
		controls = make(chan emit.Control, 4)
		defer close(controls)
		tap.gui = func(m map[string]any) {
			if m["type"] == "control_request" {
				controls <- emit.Control{Kind: emit.ControlApproval, RequestID: m["request_id"].(string), Approved: *lv.approve, Message: "not now"}
			}
		}
	}
	var stderr bytes.Buffer
	if dir := os.Getenv("YUME_E2E_RECORD"); dir != "" && lv.mode == "acp" {
		// Keep the raw ACP exchange, to refresh testdata/acp captures.
		f, err := os.Create(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".acp"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		acpRecord = f
		defer func() { acpRecord = nil }()
	}
	w := emit.NewWriter(tap, emit.Config{Model: sb.Model, Cwd: sb.Workspace})
	lv.err = Run(ctx, Options{Provider: lv.provider, Mode: lv.mode, Bin: bin, Model: sb.Model, Cwd: sb.Workspace,
		Prompt: "create the file please", PermissionMode: lv.perm, Controls: controls, Stderr: &syncWriter{w: &stderr},
		Verbose: true, Env: sb.Env}, w)
	lv.out, lv.stderr = tap.bytes(), stderr.String()
	for _, e := range emit.Validate(lv.out) {
		t.Errorf("conformance: %v", e)
	}
	assertNoLeftovers(t, sb.Home)
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", lv.out, lv.stderr)
	}
}

// syncWriter serialises writes from the provider's stderr copier and ours.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// assertNoLeftovers fails if any process still runs with the sandbox HOME.
func assertNoLeftovers(t *testing.T, home string) {
	t.Helper()
	needle := []byte("HOME=" + home + "\x00")
	deadline := time.Now().Add(5 * time.Second)
	for {
		var left []string
		procs, _ := filepath.Glob("/proc/[0-9]*/environ")
		for _, p := range procs {
			if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, needle) {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("processes left running: %v", left)
			return
		}
		time.Sleep(50 * time.Millisecond) // Polling a condition with a deadline.
	}
}

// toolResults returns the tool_result blocks of a Claude-protocol stream.
func toolResults(t *testing.T, out []byte) []map[string]any {
	var res []map[string]any
	for _, e := range events(t, out) {
		if e["type"] != "user" {
			continue
		}
		for _, b := range e["message"].(map[string]any)["content"].([]any) {
			res = append(res, b.(map[string]any))
		}
	}
	return res
}

func finalResult(t *testing.T, out []byte) map[string]any {
	for _, e := range events(t, out) {
		if e["type"] == "result" {
			return e
		}
	}
	t.Fatal("no result line")
	return nil
}

func TestLive(t *testing.T) {
	yes, no := true, false
	type tc struct {
		provider, mode, perm string
		approve              *bool
		wantRan              bool
	}
	cases := []tc{
		{"claude", "json", "auto", nil, true},
		{"claude", "json", "default", nil, false},
		{"claude", "json", "default", &yes, true},
		{"claude", "json", "default", &no, false},
		{"gemini", "json", "auto", nil, true},
		{"gemini", "json", "default", nil, false},
		{"codex", "json", "auto", nil, true},
		{"codex", "json", "deny", nil, false},
		{"copilot", "json", "auto", nil, true},
		{"copilot", "json", "default", nil, false},
		{"gemini", "acp", "default", &yes, true},
		{"gemini", "acp", "default", &no, false},
		{"copilot", "acp", "default", &yes, true},
		{"copilot", "acp", "default", &no, false},
	}
	for _, c := range cases {
		name := c.provider + "/" + c.mode + "/" + c.perm
		if c.approve != nil {
			name += map[bool]string{true: "/gui-approves", false: "/gui-denies"}[*c.approve]
		}
		t.Run(name, func(t *testing.T) {
			lv := &live{provider: c.provider, mode: c.mode, perm: c.perm, approve: c.approve, replies: []fakemodel.Reply{
				{Text: "Creating it.", ToolCalls: []fakemodel.ToolCall{shellCall(c.provider, "touch made-by-tool.txt && echo created")}, InputTokens: 20, OutputTokens: 9},
				{Text: "All done.", InputTokens: 40, OutputTokens: 6},
			}}
			lv.run(t)
			if lv.err != nil {
				t.Fatalf("Run: %v", lv.err)
			}
			_, statErr := os.Stat(filepath.Join(lv.sandbox.Workspace, "made-by-tool.txt"))
			if ran := statErr == nil; ran != c.wantRan {
				t.Errorf("command ran = %v, want %v", ran, c.wantRan)
			}
			res := finalResult(t, lv.out)
			// Copilot's ACP server ends the turn itself after a rejection.
			if res["is_error"] != false || (c.wantRan && !strings.Contains(res["result"].(string), "All done.")) {
				t.Errorf("result %v", res)
			}
			if n := len(lv.server.AgentRequests()); c.wantRan && n < 2 {
				t.Errorf("the model got %d requests; want the tool output sent back", n)
			}
			denials, _ := res["permission_denials"].([]any)
			trs := toolResults(t, lv.out)
			switch {
			case c.wantRan && c.provider == "gemini" && c.mode == "acp":
				// Gemini's ACP server does not send shell output to the client.
				if len(trs) == 0 || trs[0]["is_error"] != false || len(denials) != 0 {
					t.Errorf("approved run: tool results %v, denials %v", trs, denials)
				}
			case c.wantRan:
				if len(trs) == 0 || !strings.Contains(trs[0]["content"].(string), "created") || len(denials) != 0 {
					t.Errorf("approved run: tool results %v, denials %v", trs, denials)
				}
			case c.provider == "codex":
				// codex exec cannot ask: a read-only sandbox is all we get.
			default:
				if len(denials) != 1 || len(trs) == 0 || trs[0]["is_error"] != true {
					t.Errorf("denied run: tool results %v, denials %v", trs, denials)
				}
			}
		})
	}
}

// TestLiveErrors checks that an API failure (HTTP 401) of every provider
// ends as a system error and an error result.
func TestLiveErrors(t *testing.T) {
	for _, provider := range []string{"claude", "codex", "copilot", "gemini"} {
		t.Run(provider, func(t *testing.T) {
			lv := &live{provider: provider, mode: "json", perm: "auto", repeatLast: true,
				replies: []fakemodel.Reply{{Status: 401, ErrorMessage: "invalid x-api-key"}}}
			lv.run(t)
			if lv.err != nil {
				t.Fatalf("Run: %v", lv.err)
			}
			res := finalResult(t, lv.out)
			errs, _ := res["errors"].([]any)
			if res["is_error"] != true || len(errs) == 0 || !bytes.Contains(lv.out, []byte(`"subtype":"error"`)) {
				t.Errorf("result %v", res)
			}
		})
	}
}

// TestLiveInterrupt cancels each provider while the model is answering and
// checks for the interrupt line, an error result and no leftover process.
func TestLiveInterrupt(t *testing.T) {
	for _, c := range []struct{ provider, mode string }{
		{"claude", "json"}, {"codex", "json"}, {"copilot", "json"}, {"gemini", "json"}, {"gemini", "acp"}, {"copilot", "acp"},
	} {
		t.Run(c.provider+"/"+c.mode, func(t *testing.T) {
			lv := &live{provider: c.provider, mode: c.mode, perm: "auto", interruptAfter: 1,
				replies: []fakemodel.Reply{{Text: "thinking very hard about it", Stall: true}}}
			start := time.Now()
			lv.run(t)
			if lv.err != nil {
				t.Fatalf("Run: %v", lv.err)
			}
			res := finalResult(t, lv.out)
			if res["is_error"] != true || !bytes.Contains(lv.out, []byte(`{"type":"interrupt"`)) {
				t.Errorf("result %v", res)
			}
			t.Logf("interrupted run took %v", time.Since(start))
		})
	}
}

// TestLiveResume runs two turns, the second resuming the provider session
// the first one announced, and checks the model saw the first turn again.
func TestLiveResume(t *testing.T) {
	for _, c := range []struct{ provider, mode string }{
		{"claude", "json"}, {"codex", "json"}, {"copilot", "json"}, {"gemini", "json"}, {"gemini", "acp"}, {"copilot", "acp"},
	} {
		t.Run(c.provider+"/"+c.mode, func(t *testing.T) {
			bin, dir := e2eBin(t, c.provider)
			srv, err := fakemodel.New(fakemodel.Script{Replies: []fakemodel.Reply{{Text: "first answer"}, {Text: "second answer"}}})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			sb, err := offline.Setup(c.provider, t.TempDir(), srv.URL(), dir)
			if err != nil {
				t.Fatal(err)
			}
			session := ""
			for i, prompt := range []string{"remember the word pineapple", "which word?"} {
				var out, stderr bytes.Buffer
				w := emit.NewWriter(&out, emit.Config{Model: sb.Model, Cwd: sb.Workspace})
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				err := Run(ctx, Options{Provider: c.provider, Mode: c.mode, Bin: bin, Model: sb.Model, Cwd: sb.Workspace,
					Prompt: prompt, Resume: session, PermissionMode: "auto", Stderr: &stderr, Env: sb.Env}, w)
				cancel()
				if err != nil {
					t.Fatalf("turn %d: %v\n%s", i, err, stderr.String())
				}
				for _, e := range emit.Validate(out.Bytes()) {
					t.Errorf("turn %d conformance: %v", i, e)
				}
				res := finalResult(t, out.Bytes())
				if res["is_error"] != false {
					t.Fatalf("turn %d: %v\nstderr: %s", i, res, stderr.String())
				}
				session, _ = res["session_id"].(string)
				if os.Getenv("YUME_E2E_DEBUG") != "" {
					_ = filepath.Walk(sb.Home, func(p string, fi os.FileInfo, err error) error {
						if err == nil && strings.Contains(p, "chats") {
							t.Logf("DEBUG %s", p)
						}
						return nil
					})
				}
			}
			reqs := srv.AgentRequests()
			if len(reqs) < 2 || !reqs[len(reqs)-1].Contains("pineapple") || !reqs[len(reqs)-1].Contains("first answer") {
				t.Errorf("the resumed turn did not carry the first one (%d requests)", len(reqs))
			}
			assertNoLeftovers(t, sb.Home)
		})
	}
}

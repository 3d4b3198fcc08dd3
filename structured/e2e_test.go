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
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
	"github.com/yume-cli/yume-cli/permission"
)

// Live tests run the real CLIs against the fake model server. They need
// YUME_E2E=1 and the CLIs installed under .e2e/bin (make e2e-deps).

// e2eBin returns the installed CLI for provider or skips the test.
func e2eBin(t *testing.T, provider string) (bin, dir string) {
	t.Helper()
	if os.Getenv("YUME_E2E") == "" {
		t.Skip("live CLI test: set YUME_E2E=1 after make e2e-deps")
	}
	dir, err := filepath.Abs("../.e2e/bin")
	if err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(dir, provider)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("YUME_E2E=1 but %s is missing: run make e2e-deps", bin)
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
		acpTranscript = f
		defer func() { acpTranscript = nil }()
	}
	w := emit.NewWriter(tap, emit.Config{Model: sb.Model, Cwd: sb.Workspace})
	lv.err = Run(ctx, Options{Provider: prov(lv.provider), Mode: lv.mode, Bin: bin, Model: sb.Model, Cwd: sb.Workspace,
		Prompt: "create the file please", PermissionMode: permission.Mode(lv.perm), Controls: controls, Stderr: &syncWriter{w: &stderr},
		Verbose: true, Env: sb.Env}, w)
	lv.out, lv.stderr = tap.bytes(), stderr.String()
	for _, e := range emittest.Validate(lv.out) {
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

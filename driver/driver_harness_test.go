//go:build unix

package driver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/gobuild"
	"github.com/yume-cli/yume-cli/internal/leakcheck"
	"github.com/yume-cli/yume-cli/internal/tracedoc"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// event is one parsed stdout line.
type event map[string]any

func (e event) str(k string) string { s, _ := e[k].(string); return s }

// toolUse is a tool_use block found in the stream.
type toolUse struct {
	ID      string
	Name    string
	Command string
	Desc    string
	Input   map[string]any
}

// liveRun is everything a driven session produced.
type liveRun struct {
	raw     []byte
	events  []event
	uses    []toolUse
	results map[string]event // tool_use_id -> tool_result block
	keys    []string         // Go-quoted keys typed for rules (trace), an answer's whole
	writes  []string         // the same, a write each
	trace   string
	outcome driver.Outcome
	err     error
}

// decision answers a question: approve or not; nil means "no channel".
type decision func(n int, u toolUse) bool

// sink is the stdout of a driven session: it keeps every line and plays the
// GUI, answering control requests through decide.
type sink struct {
	mu       sync.Mutex
	buf      bytes.Buffer
	partial  []byte
	n        int
	decide   decision
	revise   map[int]string // question number -> revision feedback instead of a decision
	controls chan emit.Control
	lastUse  toolUse
	// onToolUse, if set, is called when a tool_use line arrives.
	onToolUse func()
}

func (s *sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(p)
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		line := s.partial[:i]
		s.partial = s.partial[i+1:]
		var ev event
		if json.Unmarshal(line, &ev) != nil {
			continue
		}
		if u, ok := findToolUse(ev); ok {
			s.lastUse = u
			if s.onToolUse != nil {
				s.onToolUse()
			}
		}
		if ev.str("type") == "control_request" && s.decide != nil {
			s.n++
			c := emit.Control{Kind: emit.ControlApproval, RequestID: ev.str("request_id"), Revise: s.revise[s.n]}
			if c.Revise == "" {
				c.Approved = s.decide(s.n, s.lastUse)
			}
			s.controls <- c
		}
	}
	return len(p), nil
}

// drive runs argv in a real PTY under the driver with the named profile.
func drive(t *testing.T, dir, profile string, mode permission.Mode, decide decision, argv ...string) liveRun {
	t.Helper()
	return driveRevising(t, dir, profile, mode, decide, nil, argv...)
}

// driveRevising is drive where some questions are answered with a revision.
func driveRevising(t *testing.T, dir, profile string, mode permission.Mode, decide decision, revise map[int]string, argv ...string) liveRun {
	t.Helper()
	prof, err := heuristics.LoadProfile(profile)
	if err != nil {
		t.Fatal(err)
	}
	return driveProfile(t, dir, prof, mode, decide, revise, nil, argv...)
}

// driveProfile is driveRevising with a profile given as such, and frames
// sent on the control channel before the session starts (e.g. a prompt).
func driveProfile(t *testing.T, dir string, prof *heuristics.Profile, mode permission.Mode, decide decision, revise map[int]string, first []emit.Control, argv ...string) liveRun {
	t.Helper()
	return driveWith(t, dir, prof, mode, decide, revise, first, nil, argv...)
}

// driveWith is driveProfile with the driver's configuration changed by
// tweak (nil: as it is).
func driveWith(t *testing.T, dir string, prof *heuristics.Profile, mode permission.Mode, decide decision, revise map[int]string, first []emit.Control,
	tweak func(*driver.Config), argv ...string) liveRun {
	t.Helper()
	leakcheck.Check(t)
	proc, err := ptyhost.Start(ptyhost.Options{Argv: argv, Dir: dir, Env: testEnv(), Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
	}
	defer proc.Close()
	out := &sink{decide: decide, revise: revise, controls: make(chan emit.Control, 16)}
	var controls chan emit.Control
	if decide != nil || first != nil {
		controls = out.controls
	}
	for _, f := range first {
		out.controls <- f
	}
	var trace bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	w := emit.NewWriter(out, emit.Config{Model: "test", Cwd: dir})
	if err := w.Init(string(mode), []string{"Bash"}); err != nil {
		t.Fatal(err)
	}
	var r liveRun
	cfg := driver.Config{
		Term: proc, Profile: prof, Out: w, Controls: controls, Mode: mode,
		CommandLine: strings.Join(argv, " "), Cols: 100, Rows: 30, Trace: &trace, Prompt: "say hello", Cwd: dir,
	}
	if tweak != nil {
		tweak(&cfg)
	}
	r.outcome, r.err = driver.Drive(ctx, cfg)
	if ctx.Err() != nil {
		t.Fatalf("session did not end within %v; trace:\n%s", testTimeout, trace.String())
	}
	r.raw = out.buf.Bytes()
	for _, p := range emittest.Validate(r.raw) {
		t.Errorf("conformance: %v", p)
	}
	r.parse(t, trace.Bytes())
	r.trace = trace.String()
	tracedoc.Check(t, trace.Bytes())
	if t.Failed() {
		t.Logf("stdout:\n%s\ntrace:\n%s", r.raw, trace.String())
	}
	return r
}

func (r *liveRun) parse(t *testing.T, trace []byte) {
	r.results = map[string]event{}
	sc := bufio.NewScanner(bytes.NewReader(r.raw))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("stdout line is not JSON: %q", sc.Text())
		}
		r.events = append(r.events, ev)
		if u, ok := findToolUse(ev); ok {
			r.uses = append(r.uses, u)
		}
		if ev.str("type") == "user" {
			for _, b := range blocks(ev) {
				if b.str("type") == "tool_result" {
					r.results[b.str("tool_use_id")] = b
				}
			}
		}
	}
	// An answer goes one key per write (keying.go): r.writes has each
	// write, r.keys each answer whole (its writes in a row joined).
	last := ""
	for _, line := range bytes.Split(trace, []byte("\n")) {
		var tl struct{ Event, Why, Keys string }
		if json.Unmarshal(line, &tl) != nil || tl.Event != "keys" || tl.Why == "reply" {
			if tl.Event == "keys" || tl.Event == "control" {
				last = ""
			}
			continue
		}
		// The trace has the bytes typed as they are; the tests compare them quoted.
		r.writes = append(r.writes, tl.Why+" "+strconv.Quote(tl.Keys))
		if answerWhys[tl.Why] && tl.Why == last {
			prev := r.keys[len(r.keys)-1]
			pb, _ := strconv.Unquote(strings.TrimPrefix(prev, tl.Why+" "))
			r.keys[len(r.keys)-1] = tl.Why + " " + strconv.Quote(pb+tl.Keys)
			continue
		}
		r.keys = append(r.keys, tl.Why+" "+strconv.Quote(tl.Keys))
		last = tl.Why
	}
}

// answerWhys are the keys of an answer, typed one write per key.
var answerWhys = map[string]bool{"approve": true, "deny": true, "revise": true, "followup-approve": true, "followup-deny": true}

func blocks(ev event) []event {
	msg, _ := ev["message"].(map[string]any)
	content, _ := msg["content"].([]any)
	var out []event
	for _, c := range content {
		if m, ok := c.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func findToolUse(ev event) (toolUse, bool) {
	if ev.str("type") != "assistant" {
		return toolUse{}, false
	}
	for _, b := range blocks(ev) {
		if b.str("type") == "tool_use" {
			in, _ := b["input"].(map[string]any)
			c, _ := in["command"].(string)
			d, _ := in["description"].(string)
			return toolUse{ID: b.str("id"), Name: b.str("name"), Command: c, Desc: d, Input: in}, true
		}
	}
	return toolUse{}, false
}

// result is the final result event.
func (r *liveRun) result(t *testing.T) event {
	t.Helper()
	for i := len(r.events) - 1; i >= 0; i-- {
		if r.events[i].str("type") == "result" {
			return r.events[i]
		}
	}
	t.Fatal("no result event")
	return nil
}

func approveAll(int, toolUse) bool { return true }
func denyAll(int, toolUse) bool    { return false }

// testEnv is a predictable environment for programs under test.
func testEnv() []string {
	return append(os.Environ(), "TERM=xterm-256color", "LANG=C.UTF-8", "LC_ALL=C.UTF-8",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_PAGER=cat", "PAGER=cat")
}

// buildOnce builds a command of this module once per test binary.
var builds sync.Map

func buildTool(t *testing.T, pkg string) string {
	t.Helper()
	if p, ok := builds.Load(pkg); ok {
		return p.(string)
	}
	dir, err := os.MkdirTemp("", "yume-build-")
	if err != nil {
		t.Fatal(err)
	}
	bin, err := gobuild.Command(dir, pkg, false)
	if err != nil {
		t.Fatal(err)
	}
	builds.Store(pkg, bin)
	return bin
}

func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s is not installed (CI installs it in .ci/run)", name)
	}
}

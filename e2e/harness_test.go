package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
	"github.com/yume-cli/yume-cli/internal/tracedoc"
)

// runTimeout bounds one yume-cli run; a turn takes seconds.
const runTimeout = 150 * time.Second

// event is one decoded line of yume-cli's stdout.
type event map[string]any

func (e event) str(k string) string { s, _ := e[k].(string); return s }

// use is a tool_use the run reported.
type use struct {
	ID, Name string
	Input    map[string]any
}

// result is a tool_result.
type result struct {
	Content string
	IsError bool
}

// run is one yume-cli session and what the test saw.
type run struct {
	events  []event
	at      []time.Time // when each event arrived
	started time.Time   // when yume-cli was started
	raw     []byte
	stderr  string
	trace   string
	took    time.Duration
	uses    []use
	results map[string]result
	asked   int // can_use_tool requests answered
	sb      *offline.Sandbox
	srv     *fakemodel.Server
	exit    int
}

// gui plays Yume: answer(n) decides the n-th question (from 1); interrupt
// sends an interrupt frame at the first question instead.
type gui struct {
	answer    func(n int) bool
	interrupt bool
	// early answers each tool_use as soon as it is written, before its
	// permission request (a person who clicks at once).
	early bool
}

// runYume runs yume-cli on provider with the script, as Yume starts it
// plus the given flags, and plays g against it.
func runYume(t *testing.T, provider string, script fakemodel.Script, g gui, flags ...string) *run {
	t.Helper()
	return runYumeWith(t, provider, func(string) fakemodel.Script { return script }, g, nil, flags...)
}

// runYumeWith is runYume with a script made once the workspace is known,
// and prepare (if not nil) changing the sandbox before yume-cli starts.
func runYumeWith(t *testing.T, provider string, scriptFor func(workspace string) fakemodel.Script, g gui,
	prepare func(*offline.Sandbox), flags ...string) *run {
	t.Helper()
	h := newHome(t, provider)
	if prepare != nil {
		prepare(h.sb)
	}
	return h.run(t, scriptFor(h.sb.Workspace), g, flags...)
}

// home is a sandbox and its fake model server, kept across the turns of a
// conversation (each a yume-cli process, as Yume starts them).
type home struct {
	provider string
	sb       *offline.Sandbox
	srv      *fakemodel.Server
	// together: runs go at once, so what one leaves running is looked
	// for once all have ended (noLeftovers), not as each ends.
	together bool
}

func newHome(t testing.TB, provider string) *home {
	t.Helper()
	return newHomeIn(t, provider, binDir(t))
}

// newHomeIn is newHome with the CLIs of bin (another release).
func newHomeIn(t testing.TB, provider, bin string) *home {
	t.Helper()
	srv, err := fakemodel.New(fakemodel.Script{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	sb, err := offline.Setup(provider, t.TempDir(), srv.URL(), bin)
	if err != nil {
		t.Fatal(err)
	}
	return &home{provider: provider, sb: sb, srv: srv}
}

// untraced runs yume-cli without --trace-file, as users run it: a
// benchmark's timings, not a test's evidence. Benchmarks run one at a
// time, so a benchmark may set it around its runs.
var untraced bool

// run is one yume-cli process in the home, the model answering from script.
func (h *home) run(t testing.TB, script fakemodel.Script, g gui, flags ...string) *run {
	t.Helper()
	h.srv.SetScript(script)
	return h.runAsSet(t, g, flags...)
}

// runAsSet is run with the model's script as it is: runs at once share it.
func (h *home) runAsSet(t testing.TB, g gui, flags ...string) *run {
	t.Helper()
	sb, srv, provider := h.sb, h.srv, h.provider
	r := &run{sb: sb, srv: srv, results: map[string]result{}}
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	args := []string{"--provider", provider, "--model", sb.Model, "--cwd", sb.Workspace,
		"--output-format", "stream-json", "--verbose"}
	if !untraced {
		args = append(args, "--trace-file", trace)
	}
	args = append(args, flags...) // last: they may end with -- and the program's own
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, yumeBin, args...)
	cmd.Env = append(interactiveEnv(sb.Env), "YUME_HOME="+filepath.Join(sb.Home, ".yume"))
	cmd.Dir = sb.Workspace
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	start := time.Now()
	r.started = start
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	closeIn := func() { once.Do(func() { _ = stdin.Close() }) }
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		line := sc.Bytes()
		r.raw = append(append(r.raw, line...), '\n')
		var ev event
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Errorf("stdout line is not JSON: %q", line)
			continue
		}
		r.events = append(r.events, ev)
		r.at = append(r.at, time.Now())
		before := len(r.uses)
		r.collect(ev)
		if g.early && len(r.uses) > before && g.answer != nil {
			u := r.uses[len(r.uses)-1]
			r.asked++
			b, _ := json.Marshal(map[string]any{"type": "tool_approval", "id": u.ID, "approved": g.answer(r.asked)})
			_, _ = stdin.Write(append(b, '\n'))
			continue
		}
		if ev.str("type") == "control_request" {
			req, _ := ev["request"].(map[string]any)
			if req["subtype"] != "can_use_tool" || g.early {
				continue
			}
			r.asked++
			var frame any
			switch {
			case g.interrupt:
				frame = map[string]any{"type": "interrupt"}
			default:
				frame = map[string]any{"type": "tool_approval", "id": req["tool_use_id"], "approved": g.answer(r.asked)}
			}
			b, _ := json.Marshal(frame)
			_, _ = stdin.Write(append(b, '\n'))
		}
		if ev.str("type") == "message_stop" {
			closeIn()
		}
	}
	closeIn()
	err := cmd.Wait()
	r.took = time.Since(start)
	r.stderr = stderr.String()
	if b, err := os.ReadFile(trace); err == nil {
		r.trace = string(b)
		tracedoc.Check(t, b)
	}
	if ctx.Err() != nil {
		t.Errorf("yume-cli did not end within %v", runTimeout)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	}
	for _, p := range emittest.Validate(r.raw) {
		t.Errorf("conformance: %v", p)
	}
	if !h.together {
		noLeftovers(t, sb.Home)
	}
	if d := os.Getenv("E2E_TRACES"); d != "" {
		// Every run's trace, kept to compare a passing run's timings with
		// a failed one's (whose trace the test prints).
		name := strings.ReplaceAll(t.Name(), "/", "_") + "." + strconv.FormatInt(time.Now().UnixNano(), 36) + ".trace"
		if err := os.WriteFile(filepath.Join(d, name), []byte(r.trace), 0o644); err != nil {
			t.Errorf("E2E_TRACES: %v", err)
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("stdout:\n%s\nstderr:\n%s\ntrace, without rule lines (last 20 KB):\n%s\nlast screen:\n%s",
				r.raw, r.stderr, tail(withoutRules(r.trace), 20<<10), lastScreen(r.trace))
		}
	})
	return r
}

// noLeftovers fails t for each process left running in home once yume-cli
// has ended, and kills it.
func noLeftovers(t testing.TB, home string) {
	t.Helper()
	left := leftovers(home)
	for deadline := time.Now().Add(5 * time.Second); len(left) > 0 && time.Now().Before(deadline); left = leftovers(home) {
		time.Sleep(50 * time.Millisecond) // Polling: processes take a moment to go after yume-cli.
	}
	for pid, c := range left {
		t.Errorf("process %d outlived yume-cli: %s", pid, c)
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill() // Best effort: it is reported above.
		}
	}
}

// collect indexes tool uses and results of either protocol shape.
func (r *run) collect(ev event) {
	msg, _ := ev["message"].(map[string]any)
	blocks, _ := msg["content"].([]any)
	for _, b := range blocks {
		m, _ := b.(map[string]any)
		switch m["type"] {
		case "tool_use":
			in, _ := m["input"].(map[string]any)
			r.uses = append(r.uses, use{ID: fmt.Sprint(m["id"]), Name: fmt.Sprint(m["name"]), Input: in})
		case "tool_result":
			c, _ := m["content"].(string)
			isErr, _ := m["is_error"].(bool)
			r.results[fmt.Sprint(m["tool_use_id"])] = result{c, isErr}
		}
	}
}

// final is the run's result event.
func (r *run) final() event {
	for _, e := range r.events {
		if e.str("type") == "result" {
			return e
		}
	}
	return nil
}

// texts are the assistant texts, in order.
func (r *run) texts() []string {
	var out []string
	for _, e := range r.events {
		msg, _ := e["message"].(map[string]any)
		if e.str("type") != "assistant" {
			continue
		}
		blocks, _ := msg["content"].([]any)
		for _, b := range blocks {
			if m, _ := b.(map[string]any); m["type"] == "text" {
				out = append(out, fmt.Sprint(m["text"]))
			}
		}
	}
	return out
}

// interactiveEnv is the sandbox's environment for a TUI: a real TERM.
func interactiveEnv(env []string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "TERM", "NO_COLOR", "CI":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TERM=xterm-256color", "COLORTERM=truecolor")
}

// leftovers lists live processes whose command line or environment names
// dir (the sandbox): anything the session left behind.
func leftovers(dir string) map[int]string {
	out := map[int]string{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		environ, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if strings.Contains(string(stat), ") Z ") {
			continue // a zombie is gone, only unreaped
		}
		if bytes.Contains(cmdline, []byte(dir)) || bytes.Contains(environ, []byte("HOME="+dir+"\x00")) {
			out[pid] = strings.ReplaceAll(string(cmdline), "\x00", " ")
		}
	}
	return out
}

// withoutRules drops the trace's rule lines: what is left says what the
// driver did.
func withoutRules(trace string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(trace, "\n") {
		if !strings.Contains(l, `"event":"rule"`) && !strings.Contains(l, `"event":"screen"`) {
			b.WriteString(l)
		}
	}
	return b.String()
}

// lastScreen is the last screen the trace dumped.
func lastScreen(trace string) string {
	lines := strings.Split(trace, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		var l struct {
			Event  string   `json:"event"`
			Screen []string `json:"screen"`
		}
		if json.Unmarshal([]byte(lines[i]), &l) == nil && l.Event == "screen" {
			return strings.TrimRight(strings.Join(l.Screen, "\n"), "\n ")
		}
	}
	return "(none)"
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

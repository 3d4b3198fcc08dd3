//go:build unix

package ptyhost_test

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/heuristics/vt"
	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// tuiBinDir is where .ci/run and `make e2e` install the real CLIs.
func tuiBinDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../.e2e/npm/node_modules/.bin")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// tuiEnv adapts an offline sandbox environment to a TUI: a real terminal
// type, colours, and no CI marker (Ink renders non-interactively under CI).
func tuiEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TERM", "NO_COLOR", "CI":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TERM=xterm-256color", "COLORTERM=truecolor")
}

// titleMarker starts the side request Codex makes for a task title. It
// offers a tool (apply_patch), so the fake server would count it as an
// agent turn and hand it a scripted reply meant for the real turn.
const titleMarker = "Generate a concise, single-line task title"

// routeSideRequests puts a proxy in front of srv that answers Codex's title
// request from a second fake server, so the script sees only agent turns.
// It returns the proxy's base URL.
func routeSideRequests(t *testing.T, srv *fakemodel.Server) string {
	t.Helper()
	aux, err := fakemodel.New(fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Make the file"}}, RepeatLast: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = aux.Close() })
	main, _ := url.Parse(srv.URL())
	side, _ := url.Parse(aux.URL())
	proxy := &httputil.ReverseProxy{
		FlushInterval: -1, // stream SSE as it comes
		Rewrite: func(r *httputil.ProxyRequest) {
			target := main
			body, _ := io.ReadAll(r.In.Body)
			if bytes.Contains(body, []byte(titleMarker)) {
				target = side
			}
			r.Out.Body = io.NopCloser(bytes.NewReader(body))
			r.Out.ContentLength = int64(len(body))
			r.SetURL(target)
		},
	}
	ps := &http.Server{Handler: proxy}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = ps.Serve(ln) }() // Returns ErrServerClosed on Close.
	t.Cleanup(func() { _ = ps.Close() })
	return "http://" + ln.Addr().String()
}

// leftovers lists the processes whose command line mentions dir (the
// sandbox): anything the CLI left running, such as Codex's app-server
// daemon, which detaches into its own session.
func leftovers(dir string) map[int]string {
	out := map[int]string{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(b, []byte(dir)) {
			continue
		}
		out[pid] = strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
	}
	return out
}

// endLeftovers stops the processes leftovers found: SIGTERM, then SIGKILL
// for any still there after a grace period.
func endLeftovers(procs map[int]string) {
	for pid := range procs {
		_ = syscall.Kill(pid, syscall.SIGTERM) // Best effort: it may be gone.
	}
	deadline := time.Now().Add(3 * time.Second)
	for pid := range procs {
		for syscall.Kill(pid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond) // Polling for exit under a deadline.
		}
		_ = syscall.Kill(pid, syscall.SIGKILL) // Best effort.
	}
}

// dialogClock is the terminal of a TUI run with a stopwatch: it keeps its
// own screen of the output and notes when a rule of kind menu or confirm
// first matches it, so the test can measure dialog → tool_use.
type dialogClock struct {
	ptyhost.Terminal
	mu     sync.Mutex
	screen *vt.Screen
	rules  []*heuristics.Rule
	start  time.Time
	shown  time.Duration // 0 until the dialog appeared
}

func newDialogClock(term ptyhost.Terminal, p *heuristics.Profile, cols, rows int) *dialogClock {
	c := &dialogClock{Terminal: term, screen: vt.NewScreen(cols, rows), start: time.Now()}
	for _, r := range p.Rules {
		if r.Kind == heuristics.KindMenu || r.Kind == heuristics.KindConfirm {
			c.rules = append(c.rules, r)
		}
	}
	return c
}

func (c *dialogClock) ReadChunk() ([]byte, time.Duration, error) {
	data, at, err := c.Terminal.ReadChunk()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shown == 0 && len(data) > 0 {
		c.screen.Write(data)
		text := c.screen.String()
		for _, r := range c.rules {
			if r.Match.MatchString(text) {
				c.shown = time.Since(c.start)
			}
		}
	}
	return data, at, err
}

// shownAt is when the dialog first appeared, since the clock started.
func (c *dialogClock) shownAt() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.shown
}

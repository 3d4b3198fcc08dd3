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
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// TestObserveModelErrors is a throwaway observation tool, not a check:
// it runs each CLI against the fake model answering an HTTP error and
// writes what happened under YUME_OBSERVE_OUT. YUME_OBSERVE=provider:mode:status,…
func TestObserveModelErrors(t *testing.T) {
	spec, out := os.Getenv("YUME_OBSERVE"), os.Getenv("YUME_OBSERVE_OUT")
	if spec == "" || out == "" {
		t.Skip("observation tool: set YUME_OBSERVE=provider:mode:status,… and YUME_OBSERVE_OUT")
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 3)
	for _, one := range strings.Split(spec, ",") {
		parts := strings.Split(one, ":")
		var status int
		fmt.Sscan(parts[2], &status)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			observe(t, parts[0], parts[1], status, filepath.Join(out, strings.Join(parts, "-")))
		}()
	}
	wg.Wait()
}

func observe(t *testing.T, provider, mode string, status int, dir string) {
	_ = os.MkdirAll(dir, 0o755)
	h := newHome(t, provider)
	h.srv.SetScript(fakemodel.Script{Replies: []fakemodel.Reply{{Status: status, ErrorMessage: fmt.Sprintf("fake error %d", status)}}, RepeatLast: true})
	trace := filepath.Join(dir, "trace.jsonl")
	extra := os.Getenv("YUME_OBSERVE_FLAGS")
	args := []string{"--provider", provider, "--model", h.sb.Model, "--cwd", h.sb.Workspace,
		"--output-format", "stream-json", "--verbose", "--trace-file", trace, "--mode", mode,
		"--prompt", "make the file", "--turn-timeout", "130s"}
	if extra != "" {
		args = append(args, strings.Fields(strings.ReplaceAll(extra, "{dir}", dir))...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, yumeBin, args...)
	cmd.Env = append(interactiveEnv(h.sb.Env), "YUME_HOME="+filepath.Join(h.sb.Home, ".yume"))
	cmd.Dir = h.sb.Workspace
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, _ := cmd.StdoutPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Error(err)
		return
	}
	var log strings.Builder
	done := make(chan struct{})
	go func() {
		seen := 0
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			reqs := h.srv.Requests()
			for ; seen < len(reqs); seen++ {
				r := reqs[seen]
				fmt.Fprintf(&log, "%6.1fs request %s %s %s agent=%v\n", time.Since(start).Seconds(), r.Dialect, r.Method, r.Path, r.Agent)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		fmt.Fprintf(&log, "%6.1fs stdout %s\n", time.Since(start).Seconds(), sc.Text())
	}
	err := cmd.Wait()
	close(done)
	fmt.Fprintf(&log, "%6.1fs exit %v\n", time.Since(start).Seconds(), err)
	_ = os.WriteFile(filepath.Join(dir, "events.txt"), []byte(log.String()), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "stderr.txt"), stderr.Bytes(), 0o644)
	// Distinct screens with their times.
	b, _ := os.ReadFile(trace)
	var screens strings.Builder
	last := ""
	for _, l := range strings.Split(string(b), "\n") {
		var tl struct {
			T      float64  `json:"t_ms"`
			Event  string   `json:"event"`
			Screen []string `json:"screen"`
			Why    string   `json:"why"`
			Detail string   `json:"detail"`
		}
		if json.Unmarshal([]byte(l), &tl) != nil {
			continue
		}
		if tl.Event == "screen" {
			s := strings.TrimRight(strings.Join(tl.Screen, "\n"), "\n ")
			if s != last {
				fmt.Fprintf(&screens, "=== %.1fs\n%s\n", tl.T/1000, s)
				last = s
			}
		} else if tl.Event != "rule" {
			fmt.Fprintf(&screens, "--- %.1fs %s %s %s\n", tl.T/1000, tl.Event, tl.Why, tl.Detail)
		}
	}
	_ = os.WriteFile(filepath.Join(dir, "screens.txt"), []byte(screens.String()), 0o644)
	// The provider's own records, copied whole.
	_ = filepath.Walk(h.sb.Home, func(p string, info os.FileInfo, err error) error {
		if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
			return nil
		}
		for _, d := range []string{"/.claude/projects/", "/.codex/sessions/", "/.copilot/session-state/", "/.copilot/logs/", "/.gemini/tmp/"} {
			if strings.Contains(p, d) {
				data, _ := os.ReadFile(p)
				name := strings.ReplaceAll(strings.TrimPrefix(p, h.sb.Home+"/"), "/", "_")
				_ = os.WriteFile(filepath.Join(dir, "rec-"+name), data, 0o644)
			}
		}
		return nil
	})
	t.Logf("%s %s %d: took %v, %v", provider, mode, status, time.Since(start), err)
}

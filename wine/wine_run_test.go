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

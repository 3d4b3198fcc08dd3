//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/leakcheck"
	"github.com/yume-cli/yume-cli/internal/testchild"
	"github.com/yume-cli/yume-cli/sessions"
)

// goneBound is how soon yume-cli and its CLI must be gone once the GUI is.
const goneBound = time.Second

// TestGUIGoneEndsTheSession: when the process reading yume-cli's stdout
// is killed (Yume crashed), or yume-cli's parent is (Yume exited), yume-cli
// and the CLI it drives end within a second, nothing is approved, and the
// session store holds the session. In the PTY (a question waiting for the
// GUI; a program that prints nothing), over JSON and ACP (a CLI retrying
// its model in silence, one deaf to SIGTERM; a question pending), and in
// persistent sessions (ACP during a turn, a TUI between turns).
func TestGUIGoneEndsTheSession(t *testing.T) {
	bin := buildCLI(t)
	self := os.Args[0]
	// A TUI with an input box for a persistent session in the PTY: aider's
	// profile, told what its ready screen looks like.
	tui := t.TempDir()
	ready, script := filepath.Join(tui, "ready.yaml"), filepath.Join(tui, "tui.sh")
	if err := os.WriteFile(ready, []byte("name: ready\nready: '(?m)^READY> '\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho $$ > agent.pid\nwhile :; do printf 'READY> '; read line || exit 0; done\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		agent string // the fake CLI (fakes_test.go); "" for a shell program in the PTY
		args  []string
		ready string // the event that says the CLI is at work
		frame string // written to stdin at the start (a persistent session's turn)
	}{
		{"pty, a question pending", "", []string{"--", "sh", "-c",
			`echo $$ > agent.pid; printf 'Keep going? (y/n) '; read a; [ "$a" = y ] && touch approved; sleep 300`}, "control_request", ""},
		{"pty, a program printing nothing", "", []string{"--prompt", "go", "--", "sh", "-c", `echo $$ > agent.pid; exec sleep 300`}, "system/init", ""},
		{"json, the model retried in silence", "gemini-json", []string{"--provider", "gemini", "--mode", "json", "--bin", self, "--prompt", "hi"}, "system/init", ""},
		{"acp, the model retried in silence, SIGTERM ignored", "acp-silent", []string{"--provider", "acp", "--prompt", "hi", "--", self}, "system/init", ""},
		{"acp, a question pending", "acp-ask", []string{"--provider", "acp", "--prompt", "hi", "--", self}, "control_request", ""},
		{"persistent acp session, a turn running", "acp-silent", []string{"start", "--session-id", "sess-gone", "--provider", "acp", "--", self},
			"system/init", `{"type":"user","content":"hi"}`},
		{"persistent pty session, between turns", "", []string{"start", "--session-id", "sess-gone-tui", "--provider", "aider", "--rules", ready, "--bin", script},
			"system/init", ""},
	}
	for _, c := range cases {
		for _, gone := range []string{"reader", "parent"} {
			t.Run(c.name+"/"+gone+" killed", func(t *testing.T) {
				g := startGUI(t, bin, c.agent, c.args...)
				if c.frame != "" {
					g.send(c.frame)
				}
				id := g.waitFor(c.ready)
				agent := waitPids(t, filepath.Join(g.dir, "agent.pid"))[0]
				victim := g.reader
				if gone == "parent" {
					victim = g.parent
				}
				start := time.Now()
				if err := victim.Process.Kill(); err != nil {
					t.Fatal(err)
				}
				for _, pid := range []int{g.yume, agent} { // yume-cli's pid first
					leakcheck.WaitGone(t, pid, time.Until(start.Add(goneBound)))
				}
				if t.Failed() {
					t.Fatalf("yume-cli (%d) or its CLI (%d) outlived the %s by %v; stderr:\n%s", g.yume, agent, gone, goneBound, g.stderr())
				}
				t.Logf("yume-cli and its CLI gone %v after the %s was killed", time.Since(start).Round(time.Millisecond), gone)
				if _, err := os.Stat(filepath.Join(g.dir, "approved")); err == nil {
					t.Errorf("the call was approved after the GUI went away")
				}
				g.sessionStored(id, c.frame != "")
			})
		}
	}
}

// gui is yume-cli started as Yume starts it, its stdout read by a process
// of its own (killed to play a GUI that crashed) and under a parent of its
// own (killed to play a GUI that exited); its stdin is a pipe the test
// holds open, a GUI that never answers.
type gui struct {
	t              *testing.T
	dir, home      string
	parent, reader *exec.Cmd
	stdin          *os.File
	lines          chan string
	yume           int
}

// startGUI starts yume-cli (bin) with the flags Yume passes plus args; the
// fake CLI it drives, if any, plays agent.
func startGUI(t *testing.T, bin, agent string, args ...string) *gui {
	t.Helper()
	g := &gui{t: t, dir: t.TempDir(), home: t.TempDir(), lines: make(chan string, 64)}
	yumeFlags := []string{"--cwd", g.dir, "--output-format", "stream-json", "--verbose"}
	if len(args) > 0 && args[0] == "start" {
		args = slices.Concat(args[:1], yumeFlags, args[1:])
	} else {
		args = append(yumeFlags, args...)
	}
	argv, env := testchild.Command("parent", append([]string{bin}, args...)...)
	g.parent = exec.Command(argv[0], argv[1:]...)
	g.parent.Env = append(env, "YUME_TEST_AGENT="+agent, "YUME_TEST_PIDFILE="+filepath.Join(g.dir, "yume.pid"),
		"YUME_HOME="+g.home)
	g.parent.Dir = g.dir
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	g.stdin = inW
	errFile, err := os.Create(filepath.Join(g.dir, "stderr.txt"))
	if err != nil {
		t.Fatal(err)
	}
	g.parent.Stdin, g.parent.Stdout, g.parent.Stderr = inR, outW, errFile
	g.reader = exec.Command("cat")
	g.reader.Stdin = outR
	catOut, err := g.reader.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := g.reader.Start(); err != nil {
		t.Fatal(err)
	}
	if err := g.parent.Start(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []*os.File{outR, outW, inR, errFile} {
		_ = f.Close() // theirs now: the reader's, the parent's
	}
	t.Cleanup(func() {
		_ = g.stdin.Close()
		for _, c := range []*exec.Cmd{g.reader, g.parent} {
			_ = c.Process.Kill() // Best effort: most are gone already.
			_ = c.Wait()
		}
	})
	go func() {
		defer close(g.lines)
		sc := bufio.NewScanner(catOut)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			g.lines <- sc.Text()
		}
	}()
	g.yume = waitPids(t, filepath.Join(g.dir, "yume.pid"))[0]
	return g
}

// send writes a control frame to yume-cli's stdin.
func (g *gui) send(frame string) {
	if _, err := g.stdin.WriteString(frame + "\n"); err != nil {
		g.t.Fatal(err)
	}
}

// waitFor reads the stream until an event of type typ ("type/subtype"
// for system events) and returns the session id of the init line.
func (g *gui) waitFor(typ string) (sessionID string) {
	g.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case line, ok := <-g.lines:
			if !ok {
				g.t.Fatalf("the stream ended before %s; stderr:\n%s", typ, g.stderr())
			}
			var ev struct {
				Type, Subtype string
				SessionID     string `json:"session_id"`
			}
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				g.t.Fatalf("stdout line is not JSON: %q", line)
			}
			if sessionID == "" {
				sessionID = ev.SessionID
			}
			if ev.Type == typ || ev.Type+"/"+ev.Subtype == typ {
				return sessionID
			}
		case <-timeout:
			g.t.Fatalf("no %s after 20s; stderr:\n%s", typ, g.stderr())
		}
	}
}

func (g *gui) stderr() string {
	b, _ := os.ReadFile(filepath.Join(g.dir, "stderr.txt"))
	return string(b)
}

// sessionStored checks the store after yume-cli's end: the session list
// and the session file both read, and the session holds the turn the GUI
// began (when it did).
func (g *gui) sessionStored(id string, turn bool) {
	g.t.Helper()
	root := filepath.Join(g.home, "sessions")
	idx, err := sessions.Open(root).List()
	if err != nil || !slices.ContainsFunc(idx, func(e sessions.IndexEntry) bool { return e.ID == id }) {
		g.t.Errorf("the session list does not have %s (%v): %+v", id, err, idx)
	}
	sess, err := sessions.Open(root).Load(id)
	if err != nil {
		g.t.Errorf("session %s: %v", id, err)
		return
	}
	if turn && (sess.Handle != "s-1" || len(sess.History) == 0 || sess.History[0].Text != "hi") {
		g.t.Errorf("session %s: handle %q, history %+v; want the agent's s-1 and the turn's prompt", id, sess.Handle, sess.History)
	}
}

//go:build unix

package recordings_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/gobuild"
	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/vt"
)

// TestRecordCorpus re-records testdata/corpus from real programs with
// yume-cli's own `record` (a person typing, played by this test in a real
// PTY) and `start --record` (a driven session). It runs only when asked:
//
//	YUME_RECORD_CORPUS=1 go test -run TestRecordCorpus ./recordings/
//	go test ./recordings/ -run TestCorpus -update
//
// Each session runs in a temp dir with a fixed environment (no HOME, user
// or host names) and relative paths, so the casts hold no machine paths;
// TestCorpusIsClean checks that.
func TestRecordCorpus(t *testing.T) {
	if os.Getenv("YUME_RECORD_CORPUS") == "" {
		t.Skip("set YUME_RECORD_CORPUS=1 to re-record testdata/corpus (then run the goldens with -update)")
	}
	bins := t.TempDir()
	for _, pkg := range []string{"cmd/yume-cli", "cmd/yume-demo"} {
		if _, err := gobuild.Command(bins, pkg, false); err != nil {
			t.Fatal(err)
		}
	}
	inquirer, _ := filepath.Abs("../testdata/inquirer")
	for _, s := range corpusSessions(inquirer) {
		t.Run(s.name, func(t *testing.T) {
			dir := t.TempDir()
			home := t.TempDir()
			env := []string{"PATH=" + bins + ":/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TERM=xterm-256color",
				"LANG=C.UTF-8", "GIT_AUTHOR_NAME=corpus", "GIT_AUTHOR_EMAIL=corpus@example.com",
				"GIT_COMMITTER_NAME=corpus", "GIT_COMMITTER_EMAIL=corpus@example.com", "GIT_PAGER=cat", "PAGER=cat"}
			if s.setup != nil {
				s.setup(t, dir, env)
			}
			if s.driven != nil {
				s.driven(t, dir, env)
			} else {
				recordHuman(t, dir, env, s)
			}
			data, err := os.ReadFile(filepath.Join(dir, "session.cast"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("testdata", "corpus", s.name+".cast"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// corpusSession is one recording of the corpus: a person's session (argv
// and the keys typed after each screen text) or a driven one.
type corpusSession struct {
	name   string
	argv   []string
	steps  []step
	setup  func(t *testing.T, dir string, env []string)
	driven func(t *testing.T, dir string, env []string)
}

// step waits for text on the screen, then types keys.
type step struct{ wait, keys string }

func corpusSessions(inquirer string) []corpusSession {
	files := func(names ...string) func(*testing.T, string, []string) {
		return func(t *testing.T, dir string, _ []string) {
			for _, n := range names {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(n+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	demo := func(mode string, suggest string) func(*testing.T, string, []string) {
		return func(t *testing.T, dir string, env []string) {
			driveStart(t, dir, env, mode, nil, "yume-demo", "suggest", "-t", "shell", "--suggest", suggest, "print something")
		}
	}
	return []corpusSession{
		{name: "rm-i", argv: []string{"rm", "-i", "notes.txt"}, setup: files("notes.txt"),
			steps: []step{{"remove", "y\r"}}},
		{name: "cp-i", argv: []string{"cp", "-i", "a.txt", "b.txt"}, setup: files("a.txt", "b.txt"),
			steps: []step{{"overwrite", "n\r"}}},
		{name: "git-add-p", argv: []string{"git", "add", "-p"}, setup: gitScratch,
			steps: []step{{"(1/2) Stage this hunk", "y\r"}, {"(2/2) Stage this hunk", "n\r"}}},
		{name: "inquirer", argv: []string{"node", "app/index.mjs"},
			setup: func(t *testing.T, dir string, _ []string) {
				if err := os.Symlink(inquirer, filepath.Join(dir, "app")); err != nil {
					t.Fatal(err)
				}
			},
			steps: []step{{"Delete build/", "y\r"}, {"Which action?", "\r"}}},
		{name: "demo-typed", argv: []string{"yume-demo", "suggest", "-t", "shell", "--suggest", "echo hi"},
			steps: []step{{"What would you like", "say hi\r"}, {"Select an option", "\x1b[B\x1b[B\r"}, {"Are you sure", "y\r"}}},
		{name: "hello", argv: []string{"sh", "-c", "echo Hello from the corpus"}},
		{name: "demo-approve", driven: demo("auto", "echo demo-output-$((40+2))")},
		{name: "demo-deny", driven: demo("deny", "echo demo-output-$((40+2))")},
		{name: "demo-slow", driven: demo("auto", "for i in 1 2 3; do echo tick-$i; sleep 0.3; done")},
		{name: "demo-revise", driven: func(t *testing.T, dir string, env []string) {
			driveStart(t, dir, env, "interactive", map[int]string{1: "sort"},
				"yume-demo", "suggest", "-t", "shell", "--suggest", `printf 'b\na\n'`, "print two letters")
		}},
	}
}

// gitScratch makes a repository with two changed hunks in f.txt.
func gitScratch(t *testing.T, dir string, env []string) {
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	lines := make([]string, 30)
	for i := range lines {
		lines[i] = "line"
	}
	write := func() {
		if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write()
	run("init", "-q")
	run("add", "f.txt")
	run("commit", "-qm", "init")
	lines[0], lines[29] = "first changed", "last changed"
	write()
}

// recordHuman runs `yume-cli record` in a PTY and types like a person:
// each step waits for its text, pauses as a person would, then types.
func recordHuman(t *testing.T, dir string, env []string, s corpusSession) {
	bins, _, _ := strings.Cut(strings.TrimPrefix(env[0], "PATH="), ":")
	argv := append([]string{filepath.Join(bins, "yume-cli"), "record", "-o", "session.cast", "--"}, s.argv...)
	proc, err := ptyhost.Start(ptyhost.Options{Argv: argv, Dir: dir, Env: env, Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	defer proc.Close()
	screen := make(chan string, 64)
	// The person's terminal: it answers queries (cursor position) as a
	// real one does, and its answers are recorded as input.
	tty := vt.NewScreen(80, 24)
	tty.SetReplyWriter(proc)
	go func() {
		var all strings.Builder
		for {
			data, _, err := proc.ReadChunk()
			_, _ = tty.Write(data)
			all.Write(data)
			screen <- all.String()
			if err != nil {
				close(screen)
				return
			}
		}
	}()
	seen := ""
	deadline := time.After(20 * time.Second)
	for _, st := range s.steps {
		for !strings.Contains(seen, st.wait) {
			select {
			case s, ok := <-screen:
				if !ok {
					t.Fatalf("the program ended before showing %q:\n%s", st.wait, seen)
				}
				seen = s
			case <-deadline:
				t.Fatalf("timed out waiting for %q:\n%s", st.wait, seen)
			}
		}
		seen = seen[strings.LastIndex(seen, st.wait)+len(st.wait):]
		time.Sleep(300 * time.Millisecond) // a person reads before typing: the rules see a settled screen
		if _, err := proc.Write([]byte(st.keys)); err != nil {
			t.Fatal(err)
		}
	}
	for range screen {
	}
	if st, _ := proc.Wait(); st.Code != 0 && s.name != "cp-i" {
		t.Logf("recorded program ended with %+v", st)
	}
}

// driveStart records a driven session with `start --record`; revise maps a
// question number to revision feedback, other questions are approved.
func driveStart(t *testing.T, dir string, env []string, mode string, revise map[int]string, argv ...string) {
	args := append([]string{"--permission-mode", mode, "--provider", "gh-copilot", "--cols", "80", "--rows", "24",
		"--record", "session.cast", "--"}, argv...)
	bins, _, _ := strings.Cut(strings.TrimPrefix(env[0], "PATH="), ":")
	cmd := exec.Command(filepath.Join(bins, "yume-cli"), args...)
	cmd.Dir, cmd.Env = dir, env
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	n := 0
	for sc.Scan() {
		var ev struct {
			Type      string `json:"type"`
			RequestID string `json:"request_id"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Type != "control_request" {
			continue
		}
		n++
		frame := map[string]any{"type": "control_response", "response": map[string]any{"subtype": "success",
			"request_id": ev.RequestID, "response": map[string]any{"behavior": "allow"}}}
		if fb, ok := revise[n]; ok {
			frame["response"].(map[string]any)["response"] = map[string]any{"behavior": "deny", "message": "revise", "revise": fb}
		}
		b, _ := json.Marshal(frame)
		_, _ = stdin.Write(append(b, '\n'))
	}
	_ = stdin.Close()
	_, _ = io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		t.Logf("yume-cli start: %v", err)
	}
}

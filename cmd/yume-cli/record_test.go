//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/yume-cli/yume-cli/internal/gobuild"
	"github.com/yume-cli/yume-cli/recordings"
	"golang.org/x/term"
)

// buildCLI builds yume-cli once per test into a temp dir.
func buildCLI(t *testing.T) string {
	t.Helper()
	bin, err := gobuild.Command(t.TempDir(), "cmd/yume-cli", false)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// ptySession is yume-cli running with a real terminal as its stdin,
// stdout and stderr, as a person runs it.
type ptySession struct {
	t      *testing.T
	cmd    *exec.Cmd
	master *os.File
	tty    *os.File
	before *term.State // the terminal's mode before yume-cli started
	mu     sync.Mutex
	screen bytes.Buffer
	done   chan struct{}
}

func startInPTY(t *testing.T, dir string, argv ...string) *ptySession {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Cols: 80, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	// Read the mode before the start: yume-cli switches to raw mode at once.
	before, err := term.GetState(int(tty.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &ptySession{t: t, cmd: cmd, master: master, tty: tty, before: before, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			s.mu.Lock()
			s.screen.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // Best effort: already exited when the test passed.
		_ = master.Close()
		_ = tty.Close()
	})
	return s
}

// waitFor waits until cond holds, or fails the test after a deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // a bound for a loaded machine, not a wait
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *ptySession) waitText(text string) {
	s.t.Helper()
	waitFor(s.t, "the terminal to show "+text, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return strings.Contains(s.screen.String(), text)
	})
}

// wait returns yume-cli's exit code.
func (s *ptySession) wait() int {
	s.t.Helper()
	err := s.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			s.t.Logf("yume-cli was killed by %v", ws.Signal())
		}
		return ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return 0
}

func readCastFile(t *testing.T, path string) *recordings.Cast {
	t.Helper()
	c, err := readCast(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func joined(c *recordings.Cast, code byte) string {
	var b strings.Builder
	for _, e := range c.Events {
		if e.Code == code {
			b.WriteString(e.Data)
		}
	}
	return b.String()
}

// TestRecordInAPTY runs `yume-cli record` in a real terminal, types into
// it, resizes it and signals it, and checks the cast and the terminal.
func TestRecordInAPTY(t *testing.T) {
	bin := buildCLI(t)
	tests := []struct {
		name     string
		argv     []string
		act      func(s *ptySession, castPath string)
		wantCode int
		wantIn   string
		wantOut  []string
		wantSize string // an "r" event
	}{
		{
			name: "keys", argv: []string{"rm", "-i", "notes.txt"},
			act: func(s *ptySession, _ string) {
				s.waitText("remove")
				_, _ = s.master.Write([]byte("y\r"))
			},
			wantIn: "y\r", wantOut: []string{"rm: remove regular", "notes.txt"},
		},
		{name: "exit code", argv: []string{"sh", "-c", "echo bye; exit 3"}, wantCode: 3, wantOut: []string{"bye"}},
		{
			name: "resize", argv: []string{"sh", "-c", "echo ready; read a; stty size"},
			act: func(s *ptySession, castPath string) {
				s.waitText("ready")
				if err := pty.Setsize(s.master, &pty.Winsize{Cols: 100, Rows: 30}); err != nil {
					s.t.Fatal(err)
				}
				waitFor(s.t, "the resize event", func() bool {
					b, _ := os.ReadFile(castPath)
					return bytes.Contains(b, []byte(`"r", "100x30"`))
				})
				_, _ = s.master.Write([]byte("\r"))
			},
			wantIn: "\r", wantOut: []string{"30 100"}, wantSize: "100x30",
		},
		{
			name: "SIGTERM", argv: []string{"sh", "-c", "echo sleeping; exec sleep 60"},
			act: func(s *ptySession, castPath string) {
				s.waitText("sleeping\r\n") // not the banner, which quotes the command
				// The recording holds the output too: yume-cli is in its copy loop.
				waitFor(s.t, "the output in the cast", func() bool {
					b, _ := os.ReadFile(castPath)
					return bytes.Contains(b, []byte(`"sleeping\r\n"`)) // the "o" event, not the header
				})
				_ = s.cmd.Process.Signal(syscall.SIGTERM)
			},
			wantCode: 128 + int(syscall.SIGTERM), wantOut: []string{"sleeping"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			castPath := filepath.Join(dir, "s.cast")
			s := startInPTY(t, dir, append([]string{bin, "record", "-o", castPath, "--"}, tt.argv...)...)
			before := s.before
			s.waitText("recording")
			if tt.act != nil {
				tt.act(s, castPath)
			}
			if code := s.wait(); code != tt.wantCode {
				t.Errorf("yume-cli record exited %d, want the program's %d", code, tt.wantCode)
			}
			after, err := term.GetState(int(s.tty.Fd()))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(before, after) {
				t.Error("the terminal was not restored to cooked mode")
			}
			c := readCastFile(t, castPath)
			if got, ok := c.ExitStatus(); !ok || got != tt.wantCode {
				t.Errorf("cast exit status = %d, %v; want %d", got, ok, tt.wantCode)
			}
			if got := joined(c, recordings.CodeInput); got != tt.wantIn {
				t.Errorf("recorded input %q, want %q", got, tt.wantIn)
			}
			out := joined(c, recordings.CodeOutput)
			for _, w := range tt.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("recorded output %q lacks %q", out, w)
				}
			}
			if tt.wantSize != "" && !strings.Contains(joined(c, recordings.CodeResize), tt.wantSize) {
				t.Errorf("no resize event %s in %+v", tt.wantSize, c.Events)
			}
			if c.Header.Width != 80 || c.Header.Height != 24 || len(c.Header.Env) != 1 || c.Header.Env["TERM"] == "" {
				t.Errorf("header = %+v; want the terminal's 80x24 and only TERM", c.Header)
			}
		})
	}
}

// TestRecordRefusesToOverwrite keeps an existing recording unless asked.
func TestRecordRefusesToOverwrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.cast")
	if err := os.WriteFile(path, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runMain(t, "", "record", "-o", path, "--", "true")
	if code != 1 || !strings.Contains(stderr, "--overwrite") {
		t.Errorf("exit %d, stderr %q; want 1 and a hint at --overwrite", code, stderr)
	}
	if b, _ := os.ReadFile(path); string(b) != "keep" {
		t.Errorf("file was changed to %q", b)
	}
	code, _, stderr = runMain(t, "", "record", "--overwrite", "-o", path, "--", "true")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if c := readCastFile(t, path); len(c.Events) == 0 {
		t.Error("no events recorded")
	}
}

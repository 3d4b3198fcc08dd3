//go:build unix

package ptyhost_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/leakcheck"
	"github.com/yume-cli/yume-cli/ptyhost"
)

func TestProcessExitStatus(t *testing.T) {
	tests := []struct {
		name   string
		script string
		want   ptyhost.ExitStatus
	}{
		{"exit 0", "exit 0", ptyhost.ExitStatus{Code: 0}},
		{"exit 1", "exit 1", ptyhost.ExitStatus{Code: 1}},
		{"exit 42", "exit 42", ptyhost.ExitStatus{Code: 42}},
		{"SIGKILL", "kill -KILL $$", ptyhost.ExitStatus{Code: -1, Signal: "SIGKILL"}},
		{"SIGTERM", "kill -TERM $$", ptyhost.ExitStatus{Code: -1, Signal: "SIGTERM"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t, shell(tt.script))
			readAll(t, p)
			got, err := p.Wait()
			if err != nil || got != tt.want {
				t.Errorf("Wait() = %+v, %v; want %+v, nil", got, err, tt.want)
			}
			if got.Success() != (tt.want == ptyhost.ExitStatus{}) {
				t.Errorf("%+v.Success() = %v", got, got.Success())
			}
		})
	}
}

func TestProcessStartErrors(t *testing.T) {
	tests := []struct {
		name     string
		opts     ptyhost.Options
		notFound bool   // want a *NotFoundError
		want     string // substring of the message
	}{
		{"not in PATH", ptyhost.Options{Argv: []string{"yume-no-such-provider-cli"}}, true,
			`provider binary "yume-no-such-provider-cli" not found in PATH; install it or pass --bin`},
		{"no such path", ptyhost.Options{Argv: []string{"/nonexistent/yume/cli"}}, true,
			`provider binary "/nonexistent/yume/cli" not found; install it or pass --bin`},
		{"empty argv", ptyhost.Options{}, false, "Options.Argv is empty"},
		{"empty name", ptyhost.Options{Argv: []string{""}}, false, "Options.Argv is empty"},
		{"no such dir", ptyhost.Options{Argv: []string{"/bin/sh"}, Dir: "/nonexistent/yume/dir"}, false, "/nonexistent/yume/dir"},
		{"negative size", ptyhost.Options{Argv: []string{"/bin/sh"}, Cols: -1}, false, "out of range"},
		{"too tall", ptyhost.Options{Argv: []string{"/bin/sh"}, Rows: 70000}, false, "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leakcheck.Check(t)
			p, err := ptyhost.Start(tt.opts)
			if err == nil {
				_ = p.Close()
				t.Fatalf("Start(%+v) succeeded; want an error", tt.opts)
			}
			var nf *ptyhost.NotFoundError
			if errors.As(err, &nf) != tt.notFound {
				t.Errorf("Start error %v (%T): NotFoundError = %v, want %v", err, err, !tt.notFound, tt.notFound)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Start error %q does not contain %q", err, tt.want)
			}
		})
	}
	t.Run("unwraps to exec.ErrNotFound", func(t *testing.T) {
		_, err := ptyhost.Start(ptyhost.Options{Argv: []string{"yume-no-such-provider-cli"}})
		if !errors.Is(err, exec.ErrNotFound) {
			t.Errorf("errors.Is(%v, exec.ErrNotFound) = false", err)
		}
	})
}

func TestProcessStopEscalatesToSIGKILL(t *testing.T) {
	const grace = 300 * time.Millisecond
	p := start(t, helper("ignoreterm"))
	var out bytes.Buffer
	readUntil(t, p, &out, "ready") // Its signal handlers are in place.
	began := time.Now()
	if err := p.Stop(grace); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if elapsed := time.Since(began); elapsed < grace {
		t.Errorf("Stop returned after %v; want at least the grace period %v", elapsed, grace)
	}
	if got, _ := p.Wait(); got != (ptyhost.ExitStatus{Code: -1, Signal: "SIGKILL"}) {
		t.Errorf("Wait() = %+v; want killed", got)
	}
	leakcheck.WaitGone(t, p.Pid(), testTimeout)
}

func TestProcessStopReachesGrandchild(t *testing.T) {
	tests := []struct {
		name       string
		script     string
		leaderExit bool // the leader exits at once, leaving the grandchild holding the PTY
	}{
		// The grandchild ignores SIGHUP, so that the leader's exit (which
		// hangs up its foreground group) does not end it for us.
		{"leader waits", `trap "" HUP; sleep 60 & echo "pid $!"; wait`, false},
		{"leader gone", `trap "" HUP; sleep 60 & echo "pid $!"`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t, shell(tt.script))
			var out bytes.Buffer
			readUntil(t, p, &out, "\n")
			pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(out.String(), "pid ")))
			if err != nil {
				t.Fatalf("no grandchild pid in %q", out.String())
			}
			rest := make(chan []byte, 1)
			go func() { b, _ := io.ReadAll(p); rest <- b }()
			if tt.leaderExit {
				select {
				case <-p.Done():
				case <-time.After(testTimeout):
					t.Fatal("the leader did not exit")
				}
				// The read blocks rather than ending: the grandchild still
				// holds the terminal open.
				waitBlockedInRead(t)
			}
			if err := p.Stop(ptyhost.DefaultGrace); err != nil {
				t.Fatalf("Stop: %v", err)
			}
			leakcheck.WaitGone(t, pid, testTimeout)
			select {
			case <-rest: // Reads ended once the group was gone.
			case <-time.After(testTimeout):
				t.Fatal("Read did not end after Stop killed the process group")
			}
		})
	}
}

// Close must interrupt a Read blocked on a silent terminal, even one that a
// process outside our reach keeps open (creack/pty issues 88 and 114).
func TestProcessCloseUnblocksRead(t *testing.T) {
	tests := []struct {
		name   string
		script string
	}{
		{"child alive", "sleep 60"},
		// The grandchild leaves the session, so Stop cannot reach it and
		// it holds the terminal open: only closing the master ends the read.
		{"escaped grandchild", `trap "" HUP; setsid sleep 60 & echo "pid $!"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Contains(tt.script, "setsid") {
				if _, err := exec.LookPath("setsid"); err != nil {
					t.Skip("setsid(1) is not installed")
				}
			}
			p := start(t, shell(tt.script))
			var out bytes.Buffer
			if strings.Contains(tt.script, "pid") {
				readUntil(t, p, &out, "\n")
				pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(out.String(), "pid ")))
				if err != nil {
					t.Fatalf("no grandchild pid in %q", out.String())
				}
				t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) }) // Not ours to reap.
			}
			result := make(chan error, 1)
			go func() {
				_, _, err := p.ReadChunk()
				result <- err
			}()
			waitBlockedInRead(t)
			if err := p.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			select {
			case err := <-result:
				if !errors.Is(err, io.EOF) {
					t.Errorf("blocked ReadChunk returned %v; want io.EOF", err)
				}
			case <-time.After(testTimeout):
				t.Fatal("Close did not unblock ReadChunk")
			}
		})
	}
}

func TestProcessWaitDoneAndCloseAreIdempotent(t *testing.T) {
	p := start(t, shell("exit 3"))
	readAll(t, p)
	want := ptyhost.ExitStatus{Code: 3}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			<-p.Done()
			if got, err := p.Wait(); got != want || err != nil {
				t.Errorf("Wait() = %+v, %v; want %+v", got, err, want)
			}
		})
	}
	wg.Wait()
	if err := p.Stop(time.Hour); err != nil { // Already reaped: returns at once.
		t.Errorf("Stop after exit: %v", err)
	}
	for i := range 2 {
		if err := p.Close(); err != nil {
			t.Errorf("Close #%d: %v", i+1, err)
		}
	}
	if _, err := p.Write([]byte("x")); err == nil {
		t.Error("Write after Close succeeded; want an error")
	}
	if n, err := p.Read(make([]byte, 8)); n != 0 || !errors.Is(err, io.EOF) {
		t.Errorf("Read after Close = %d, %v; want 0, io.EOF", n, err)
	}
	if p.Pid() <= 0 {
		t.Errorf("Pid() = %d", p.Pid())
	}
}

// The child inherits its terminal as fds 0, 1 and 2 and nothing else of
// ours: not the master, not a second copy of the slave (O_CLOEXEC).
func TestProcessChildInheritsOnlyItsTerminal(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc on this system")
	}
	p := start(t, shell(`for f in /proc/$$/fd/*; do printf '%s=%s\n' "${f##*/}" "$(readlink "$f")"; done`))
	out := strings.ReplaceAll(string(readAll(t, p)), "\r\n", "\n")
	fds := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		fd, target, _ := strings.Cut(line, "=")
		fds[fd] = target
	}
	for fd, target := range fds {
		std := fd == "0" || fd == "1" || fd == "2"
		terminal := strings.HasPrefix(target, "/dev/pts/") || target == "/dev/ptmx"
		if std != terminal {
			t.Errorf("child fd %s refers to %q; want fds 0-2 (only) on the PTY slave\n%s", fd, target, out)
		}
	}
	if fds["0"] == "" || fds["0"] != fds["1"] || fds["1"] != fds["2"] {
		t.Errorf("child fds 0-2 = %q, %q, %q; want the same PTY slave", fds["0"], fds["1"], fds["2"])
	}
}

// Stop and Close may race each other from several goroutines (an interrupt
// arriving while the session shuts down); each returns once the child is gone.
func TestProcessConcurrentStopAndClose(t *testing.T) {
	p := start(t, shell("sleep 60"))
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				err = p.Stop(ptyhost.DefaultGrace)
			} else {
				err = p.Close()
			}
			if err != nil {
				t.Errorf("goroutine %d: %v", i, err)
			}
			select {
			case <-p.Done():
			default:
				t.Errorf("goroutine %d: returned before the child was reaped", i)
			}
		})
	}
	wg.Wait()
	// SIGHUP and SIGTERM are both pending when it runs; either may end it.
	if st, err := p.Wait(); (st.Signal != "SIGTERM" && st.Signal != "SIGHUP") || err != nil {
		t.Errorf("Wait() = %+v, %v; want terminated by SIGTERM or SIGHUP", st, err)
	}
}

func TestExitStatusWords(t *testing.T) {
	for _, c := range []struct {
		st   ptyhost.ExitStatus
		want string
	}{
		{ptyhost.ExitStatus{}, "the program exited with status 0"},
		{ptyhost.ExitStatus{Code: 42}, "the program exited with status 42"},
		{ptyhost.ExitStatus{Code: -1, Signal: "SIGSEGV"}, "the program was killed by SIGSEGV"},
		{ptyhost.ExitStatus{Code: -1, Why: "wait: no child"}, "how the program ended is unknown: wait: no child"},
	} {
		if got := c.st.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.st, got, c.want)
		}
	}
}

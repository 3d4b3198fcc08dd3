//go:build unix

package ptyhost_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/yume-cli/yume-cli/internal/leakcheck"
	"github.com/yume-cli/yume-cli/internal/testchild"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// testTimeout bounds every wait in these tests; a hang fails, never stalls.
const testTimeout = 30 * time.Second

// The child programs these tests run: this test binary, re-run in a mode.
func init() {
	testchild.Run(map[string]testchild.Mode{
		"flood": func(args []string) int { // flood N: write N bytes of the floodStream.
			n, _ := strconv.Atoi(args[0])
			return flood(os.Stdout, n)
		},
		"ignoreterm": func([]string) int { // Ignore SIGTERM and SIGHUP, like a stubborn TUI.
			signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
			fmt.Print("ready\n")
			time.Sleep(time.Hour)
			return 0
		},
		"echo": func([]string) int { // Echo each read of stdin as <data>.
			buf := make([]byte, 4096)
			for {
				n, err := os.Stdin.Read(buf)
				if err != nil {
					return 0
				}
				fmt.Printf("<%s>", buf[:n])
			}
		},
		"winch": func([]string) int { // Print the window size at start and on every SIGWINCH.
			winch := make(chan os.Signal, 1)
			signal.Notify(winch, syscall.SIGWINCH)
			for {
				rows, cols, err := pty.Getsize(os.Stdin)
				if err != nil {
					fmt.Printf("error %v\n", err)
					return 1
				}
				fmt.Printf("size %d %d\n", rows, cols)
				<-winch
			}
		},
	})
}

// helper returns Options that re-run this test binary in a helper mode.
func helper(mode string, args ...string) ptyhost.Options {
	argv, env := testchild.Command(mode, args...)
	return ptyhost.Options{Argv: argv, Env: env}
}

// startRaw starts a helper mode with plain creack/pty: the baseline.
func startRaw(b *testing.B, mode string, size int) (*os.File, *exec.Cmd) {
	return testchild.StartRaw(b, mode, strconv.Itoa(size))
}

// shell returns Options that run script with /bin/sh -c.
func shell(script string) ptyhost.Options {
	return ptyhost.Options{Argv: []string{"/bin/sh", "-c", script}}
}

// floodStream fills b with the next bytes of a deterministic pseudo-random
// stream. It never produces '\n', the one byte a PTY's default output
// processing (ONLCR) rewrites, so what arrives must equal what was sent.
type floodStream struct{ x uint64 }

func (s *floodStream) fill(b []byte) {
	for i := range b {
		s.x = s.x*6364136223846793005 + 1442695040888963407
		c := byte(s.x >> 56)
		if c == '\n' {
			c = '~'
		}
		b[i] = c
	}
}

// flood writes n bytes of the stream to w.
func flood(w io.Writer, n int) int {
	var s floodStream
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 32<<10)
	for n > 0 {
		chunk := buf[:min(n, len(buf))]
		s.fill(chunk)
		if _, err := bw.Write(chunk); err != nil {
			return 1
		}
		n -= len(chunk)
	}
	if bw.Flush() != nil {
		return 1
	}
	return 0
}

// start checks for leaks around the test, starts opts and closes the
// process when the test ends.
func start(t *testing.T, opts ptyhost.Options) *ptyhost.Process {
	t.Helper()
	leakcheck.Check(t)
	p, err := ptyhost.Start(opts)
	if err != nil {
		t.Fatalf("Start(%q): %v", opts.Argv, err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return p
}

// watchdog closes p if the test is still reading after testTimeout, so that a
// read that never ends fails the test instead of hanging it.
func watchdog(t *testing.T, p *ptyhost.Process) { watchdogAfter(t, p, testTimeout) }

// watchdogAfter is watchdog with a longer limit, for tests that move a lot
// of data on a machine that may be busy.
func watchdogAfter(t *testing.T, p *ptyhost.Process, limit time.Duration) {
	t.Helper()
	timer := time.AfterFunc(limit, func() { _ = p.Close() })
	t.Cleanup(func() {
		if !timer.Stop() {
			t.Errorf("watchdog: output did not arrive within %v; the process was closed", limit)
		}
	})
}

// readUntil reads output into acc until acc contains want.
func readUntil(t *testing.T, p *ptyhost.Process, acc *bytes.Buffer, want string) {
	t.Helper()
	watchdog(t, p)
	for !bytes.Contains(acc.Bytes(), []byte(want)) {
		chunk, _, err := p.ReadChunk()
		acc.Write(chunk)
		if err != nil {
			t.Fatalf("output ended (%v) before %q; got %q", err, want, acc.Bytes())
		}
	}
}

// readAll reads output until io.EOF.
func readAll(t *testing.T, p *ptyhost.Process) []byte {
	t.Helper()
	watchdog(t, p)
	var acc bytes.Buffer
	for {
		chunk, _, err := p.ReadChunk()
		acc.Write(chunk)
		if errors.Is(err, io.EOF) {
			return acc.Bytes()
		}
		if err != nil {
			t.Fatalf("ReadChunk: %v (after %q)", err, acc.Bytes())
		}
	}
}

// waitBlockedInRead waits until some goroutine is parked by the poller (state
// "IO wait") inside Process.Read: proof that a read is blocked on an open,
// silent terminal rather than about to return.
func waitBlockedInRead(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	buf := make([]byte, 1<<20)
	for {
		all := buf[:runtime.Stack(buf, true)]
		for _, g := range bytes.Split(all, []byte("\n\n")) {
			if bytes.Contains(g, []byte("[IO wait")) && bytes.Contains(g, []byte("ptyhost.(*Process).Read(")) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no goroutine blocked in Process.Read after %v:\n%s", testTimeout, all)
		}
		time.Sleep(time.Millisecond) // Polling a condition under a deadline.
	}
}

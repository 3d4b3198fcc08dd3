//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// Terminal size the tests run at; also the answer to survey's size probe.
const (
	termRows = 40
	termCols = 120
)

// console runs a program in a real PTY and plays the terminal: it collects
// the output and answers the cursor-position requests (ESC[6n) that survey
// sends before it reads a line, which a real terminal answers and go-expect
// does not (survey would wait for the reply forever).
//
// Keys and cursor reports share the child's input, and survey reads each
// report through a fresh bufio.Reader: bytes that arrive behind a report in
// the same read are lost, bytes ahead of it are kept for the prompt (survey
// expects type-ahead there). So the size probe is answered at once, and the
// position report that opens a line prompt is held back until the test types
// its answer, then sent right behind it. The slave side is kept open to see
// when a menu prompt reads the terminal raw.
type console struct {
	t     *testing.T
	ptmx  *os.File // master: our end
	tty   *os.File // slave: the child's terminal, kept open to inspect it
	ttyFd int      // tty's descriptor, read once: Fd races with Close
	cmd   *exec.Cmd
	done  chan struct{} // closed when the output has ended after the child exited
	state error         // cmd.Wait's result, valid after done

	mu      sync.Mutex
	raw     []byte
	scanned int           // raw[:scanned] has been searched for ESC[6n
	held    int           // position reports requested and not yet answered
	exited  bool          // the child exited and tty is closed
	pos     int           // expect has consumed plain()[:pos]
	changed chan struct{} // closed and replaced on every new output
}

// startConsole starts bin with args in a fresh PTY, working in dir.
func startConsole(t *testing.T, dir, bin string, args ...string) *console {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pty: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: termRows, Cols: termCols}); err != nil {
		t.Fatalf("size the pty: %v", err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	c := &console{t: t, ptmx: ptmx, tty: tty, ttyFd: int(tty.Fd()), cmd: cmd, done: make(chan struct{}), changed: make(chan struct{})}
	output := make(chan struct{})
	go c.readLoop(output)
	go func() {
		c.state = cmd.Wait()
		c.mu.Lock()
		c.exited = true
		_ = tty.Close() // Our copy of the slave was the last: the master now reads EIO.
		c.mu.Unlock()
		<-output
		close(c.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // Best effort: the test may have failed mid-dialogue.
		<-c.done
		_ = ptmx.Close()
	})
	return c
}

func (c *console) readLoop(finished chan<- struct{}) {
	defer close(finished)
	buf := make([]byte, 4096)
	for {
		n, err := c.ptmx.Read(buf)
		c.mu.Lock()
		c.raw = append(c.raw, buf[:n]...)
		probes := c.scanRequests()
		close(c.changed)
		c.changed = make(chan struct{})
		c.mu.Unlock()
		for range probes {
			_, _ = c.ptmx.Write([]byte(sizeReport)) // The child may be gone; Wait reports that.
		}
		if err != nil { // EIO once no slave descriptor is left open.
			return
		}
	}
}

// Reports a terminal gives for ESC[6n: the size probe (survey moves to
// 999;999 first) gets the bottom-right corner; the position is row 1,
// column 1: survey only uses it to know where typed text wraps, which the
// tests' short answers never do.
const (
	sizeReport     = "\x1b[40;120R"
	positionReport = "\x1b[1;1R"
)

// scanRequests finds new ESC[6n requests, returns how many size probes to
// answer now and counts the position requests in c.held. Call with c.mu held.
func (c *console) scanRequests() int {
	probes := 0
	const dsr, probe = "\x1b[6n", "\x1b[999;999f"
	for {
		i := bytes.Index(c.raw[c.scanned:], []byte(dsr))
		if i < 0 {
			c.scanned = max(c.scanned, len(c.raw)-len(dsr)+1)
			return probes
		}
		at := c.scanned + i
		if bytes.HasSuffix(c.raw[:at], []byte(probe)) {
			probes++
		} else {
			c.held++
		}
		c.scanned = at + len(dsr)
	}
}

// plain is the output so far without escape sequences or carriage returns.
func (c *console) plain() string {
	return strings.ReplaceAll(ansi.Strip(string(c.raw)), "\r", "")
}

// expect waits until s appears in the output after what earlier expects
// consumed, and consumes up to its end.
func (c *console) expect(s string) {
	c.t.Helper()
	c.waitFor("output "+quote(s), func() bool {
		if i := strings.Index(c.plain()[c.pos:], s); i >= 0 {
			c.pos += i + len(s)
			return true
		}
		return false
	})
}

// waitReady waits until the child reads keys: for a line prompt (survey
// Input or Confirm) until it asked for the cursor position, for a menu
// (survey Select) until it reads the terminal raw.
func (c *console) waitReady(line bool) {
	c.t.Helper()
	c.waitFor("the program to read keys", func() bool {
		if line {
			return c.held > 0
		}
		return c.rawMode()
	})
}

// waitFor polls cond (under the lock) on every output change, and at least
// every few milliseconds for state that shows no output (terminal mode,
// unread input), until it holds or 10 seconds pass.
func (c *console) waitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.mu.Lock()
		ok := cond()
		changed := c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for %s; output after the last match:\n%s", what, c.rest())
		}
		select {
		case <-changed:
		case <-c.done:
			c.mu.Lock()
			ok = cond()
			c.mu.Unlock()
			if !ok {
				c.t.Fatalf("program ended while waiting for %s; output after the last match:\n%s", what, c.rest())
			}
			return
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// rawMode reports whether the child reads its terminal without line
// editing (survey's prompts do while they wait). Call with c.mu held.
func (c *console) rawMode() bool {
	if c.exited {
		return false
	}
	tio, err := unix.IoctlGetTermios(c.ttyFd, unix.TCGETS)
	return err == nil && tio.Lflag&unix.ICANON == 0
}

// send types keys into the terminal, then answers the held position
// requests (see console).
func (c *console) send(keys string) {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.ptmx.Write([]byte(keys)); err != nil {
		c.t.Fatalf("type %q: %v", keys, err)
	}
	for ; c.held > 0; c.held-- {
		_, _ = c.ptmx.Write([]byte(positionReport)) // The child may be gone; Wait reports that.
	}
}

// wait waits for the program to exit and returns its exit status.
func (c *console) wait() int {
	c.t.Helper()
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		c.t.Fatalf("program did not exit; output:\n%s", c.output())
	}
	var ee *exec.ExitError
	if errors.As(c.state, &ee) {
		return ee.ExitCode()
	}
	if c.state != nil {
		c.t.Fatalf("wait: %v", c.state)
	}
	return 0
}

// output is everything printed so far, escape sequences removed.
func (c *console) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.plain()
}

func (c *console) rest() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.plain()[c.pos:]
}

func quote(s string) string { return "\"" + strings.ReplaceAll(s, "\n", `\n`) + "\"" }

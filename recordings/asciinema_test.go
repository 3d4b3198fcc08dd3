package recordings

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestStockAsciinemaCat checks that a cast the Recorder writes plays in
// stock asciinema: `asciinema cat FILE` must print exactly the recorded
// output, and accept the "i", "r", "m" and trailing "x" events around it.
// asciinema 2.x opens /dev/tty even for cat, so it runs in a pseudo-terminal.
func TestStockAsciinemaCat(t *testing.T) {
	bin, err := exec.LookPath("asciinema")
	if err != nil {
		t.Skip("asciinema is not installed; `apt-get install -y asciinema` to check compatibility with stock asciinema")
	}
	path := filepath.Join(t.TempDir(), "session.cast")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRecorder(f, Header{Width: 80, Height: 24, Title: "compat", Command: "copilot",
		Env: map[string]string{"TERM": "xterm-256color", "SHELL": "/bin/bash"}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r.Output(ms(10), []byte("Suggestion: ls -la\r\nRun this? (y/n) \xe2\x82"))
	r.Output(ms(20), []byte("\xac \x1b[1mbold\x1b[0m"))
	r.Marker(ms(30), "confirm")
	r.Input(ms(40), []byte("y\r"))
	r.Resize(ms(50), 100, 40)
	r.Output(ms(60), []byte("\r\ntotal 0 \"quoted\" \\ end\r\n"))
	if err := r.Close(0); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	want := "Suggestion: ls -la\r\nRun this? (y/n) € \x1b[1mbold\x1b[0m\r\ntotal 0 \"quoted\" \\ end\r\n"

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "cat", path)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "ASCIINEMA_CONFIG_HOME="+t.TempDir())
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 80, Rows: 24})
	if err != nil {
		t.Fatalf("starting asciinema in a pty: %v", err)
	}
	var out bytes.Buffer
	_, err = io.Copy(&out, tty) // Ends with EIO once asciinema exits.
	if err != nil && !errors.Is(err, syscall.EIO) {
		t.Errorf("reading asciinema's output: %v", err)
	}
	_ = tty.Close() // Best effort.
	if err := cmd.Wait(); err != nil {
		t.Fatalf("asciinema cat failed: %v\n%s", err, out.String())
	}
	// The pty may turn "\n" into "\r\n" where asciinema did not switch it to
	// raw mode; compare with that undone.
	got := strings.ReplaceAll(out.String(), "\r\r\n", "\r\n")
	if !strings.Contains(got, want) {
		t.Errorf("asciinema cat printed\n%q\nwant it to contain\n%q", got, want)
	}
	for _, notOutput := range []string{"confirm", "y\r", "100x40"} {
		if strings.Contains(strings.ReplaceAll(got, want, ""), notOutput) {
			t.Errorf("asciinema cat printed %q, which is not output: %q", notOutput, got)
		}
	}
}

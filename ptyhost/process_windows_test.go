//go:build windows

package ptyhost_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/testchild"
	"github.com/yume-cli/yume-cli/ptyhost"
	"golang.org/x/sys/windows"
)

// These tests run the Windows build of ptyhost: on Windows, or (as CI
// does) under Wine, where the Wine suite runs this test binary
// (wine/wine_test.go).

// testTimeout bounds every wait in these tests; a hang fails, never stalls.
const testTimeout = 30 * time.Second

func helper(mode string, args ...string) ptyhost.Options {
	argv, env := testchild.Command(mode, args...)
	return ptyhost.Options{Argv: argv, Env: env}
}

func start(t *testing.T, opts ptyhost.Options) *ptyhost.Process {
	t.Helper()
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

// watchdog closes p if the test still waits after testTimeout.
func watchdog(t *testing.T, p *ptyhost.Process) {
	t.Helper()
	timer := time.AfterFunc(testTimeout, func() { _ = p.Close() })
	t.Cleanup(func() {
		if !timer.Stop() {
			t.Errorf("watchdog: the test still waited after %v; the process was closed", testTimeout)
		}
	})
}

// screenText is what conhost drew, without its escape sequences: enough
// to find a line in.
func screenText(b []byte) string {
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] != 0x1b {
			if b[i] >= 0x20 || b[i] == '\n' {
				out.WriteByte(b[i])
			} else if b[i] == '\r' {
				out.WriteByte('\n')
			}
			continue
		}
		// Skip CSI ... final, OSC ... BEL/ST, and two-byte escapes.
		switch {
		case i+1 < len(b) && b[i+1] == '[':
			i += 2
			for i < len(b) && (b[i] < 0x40 || b[i] > 0x7e) {
				i++
			}
		case i+1 < len(b) && b[i+1] == ']':
			for i < len(b) && b[i] != 0x07 && !(b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\') {
				i++
			}
		default:
			i++
		}
	}
	return out.String()
}

func readUntil(t *testing.T, p *ptyhost.Process, acc *bytes.Buffer, want string) {
	t.Helper()
	for !strings.Contains(screenText(acc.Bytes()), want) {
		chunk, _, err := p.ReadChunk()
		acc.Write(chunk)
		if err != nil {
			t.Fatalf("output ended (%v) before %q; got %q", err, want, screenText(acc.Bytes()))
		}
	}
}

func readAll(t *testing.T, p *ptyhost.Process) []byte {
	t.Helper()
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

func TestWindowsExitStatus(t *testing.T) {
	tests := []struct {
		code string
		want ptyhost.ExitStatus
	}{
		{"0", ptyhost.ExitStatus{Code: 0}},
		{"1", ptyhost.ExitStatus{Code: 1}},
		{"42", ptyhost.ExitStatus{Code: 42}},
		{"137", ptyhost.ExitStatus{Code: 137}}, // a program's own 137 is no stop
		{"0xC0000005", ptyhost.ExitStatus{Code: 0xC0000005}},
		{"0xC000013A", ptyhost.ExitStatus{Code: -1, Signal: "SIGINT"}},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			p := start(t, helper("exit", tt.code))
			watchdog(t, p)
			out := readAll(t, p)
			if !strings.Contains(screenText(out), "exit "+tt.code) {
				t.Errorf("output %q lacks %q", screenText(out), "exit "+tt.code)
			}
			if got, err := p.Wait(); err != nil || got != tt.want {
				t.Errorf("Wait() = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestWindowsKeysReachTheProgram(t *testing.T) {
	p := start(t, helper("echo"))
	watchdog(t, p)
	var acc bytes.Buffer
	readUntil(t, p, &acc, "ready")
	for _, line := range []string{"hello", "y", "two words"} {
		if _, err := p.Write([]byte(line + "\r")); err != nil {
			t.Fatal(err)
		}
		readUntil(t, p, &acc, "<"+line+">")
	}
}

func TestWindowsLastOutputBeforeEOF(t *testing.T) {
	const n = 300
	p := start(t, helper("lines", strconv.Itoa(n)))
	watchdog(t, p)
	out := screenText(readAll(t, p))
	if want := fmt.Sprintf("line %d", n-1); !strings.Contains(out, want) {
		t.Errorf("output lacks its last line %q; its end: %q", want, out[max(0, len(out)-200):])
	}
	select {
	case <-p.Done():
	default:
		t.Error("Read reached EOF while the child still runs")
	}
}

func TestWindowsCloseEndsABlockedRead(t *testing.T) {
	p := start(t, helper("sleep"))
	watchdog(t, p)
	read := make(chan error, 1)
	go func() {
		for {
			_, _, err := p.ReadChunk()
			if err != nil {
				read <- err
				return
			}
		}
	}()
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := <-read; !errors.Is(err, io.EOF) {
		t.Errorf("read after Close: %v; want io.EOF", err)
	}
	if _, err := p.Write([]byte("x")); err == nil {
		t.Error("Write after Close succeeded")
	}
}

func TestWindowsBatchFileArguments(t *testing.T) {
	script := filepath.Join(tempDir(t), "prog.cmd")
	body := "@echo off\r\n\"" + os.Args[0] + "\" %*\r\nexit /b 5\r\n"
	if err := os.WriteFile(script, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"a&b", "c^d", "(e) <f> |g", `h\`, "two words"}
	opts := ptyhost.Options{Argv: append([]string{script}, args...), Env: append(os.Environ(), "YUME_TEST_CHILD=args")}
	p := start(t, opts)
	watchdog(t, p)
	out := screenText(readAll(t, p))
	for _, a := range args {
		if want := fmt.Sprintf("arg %q", a); !strings.Contains(out, want) {
			t.Errorf("output lacks %s: %q", want, out)
		}
	}
	if got, _ := p.Wait(); got.Code != 5 {
		t.Errorf("Wait() = %+v; want the batch file's exit code 5", got)
	}
	for _, bad := range []string{`say "hi"`, "100%", "wow!"} {
		_, err := ptyhost.Start(ptyhost.Options{Argv: []string{script, bad}})
		if err == nil || !strings.Contains(err.Error(), "batch file") {
			t.Errorf("Start of a batch file with argument %q: %v; want a refusal", bad, err)
		}
	}
}

func TestWindowsResize(t *testing.T) {
	p := start(t, ptyhost.Options{Argv: helper("size").Argv, Env: helper("size").Env, Cols: 100, Rows: 30})
	watchdog(t, p)
	var acc bytes.Buffer
	readUntil(t, p, &acc, "size 100x30")
	err := p.Resize(90, 25)
	if underWine() && errors.Is(err, syscall.Errno(windows.E_NOTIMPL)) {
		t.Skip("Wine 8 does not implement ResizePseudoConsole (E_NOTIMPL): resizing needs a real Windows run")
	}
	if err != nil {
		t.Fatalf("Resize: %v", err)
	}
	if _, err := p.Write([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	readUntil(t, p, &acc, "size 90x25")
}

func TestWindowsStartErrors(t *testing.T) {
	tests := []struct {
		name     string
		opts     ptyhost.Options
		notFound bool
		want     string
	}{
		{"not in PATH", ptyhost.Options{Argv: []string{"yume-no-such-provider-cli"}}, true, "not found in PATH"},
		{"no such path", ptyhost.Options{Argv: []string{`C:\nonexistent\yume\cli.exe`}}, true, "not found;"},
		{"empty argv", ptyhost.Options{}, false, "Options.Argv is empty"},
		{"no such dir", ptyhost.Options{Argv: helper("exit", "0").Argv, Dir: `C:\nonexistent\yume\dir`}, false, `C:\nonexistent\yume\dir`},
		{"too wide", ptyhost.Options{Argv: helper("exit", "0").Argv, Cols: 70000}, false, "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ptyhost.Start(tt.opts)
			if err == nil {
				_ = p.Close()
				t.Fatalf("Start(%+v) succeeded; want an error", tt.opts)
			}
			var nf *ptyhost.NotFoundError
			if errors.As(err, &nf) != tt.notFound {
				t.Errorf("Start error %v: NotFoundError = %v, want %v", err, !tt.notFound, tt.notFound)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Start error %q does not contain %q", err, tt.want)
			}
		})
	}
}

// tempDir is t.TempDir, but emptied file by file: under Wine 8,
// os.RemoveAll fails ("Invalid function").
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "yume-ptyhost-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			_ = os.Remove(filepath.Join(dir, e.Name())) // Best effort: a leftover in a temporary directory.
		}
		_ = os.Remove(dir)
	})
	return dir
}

// underWine reports a run under Wine, whose known gaps some tests skip.
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}

func TestWindowsCmdExe(t *testing.T) {
	p := start(t, ptyhost.Options{Argv: []string{"cmd.exe", "/c", "echo hello from cmd& exit /b 3"}})
	watchdog(t, p)
	if out := screenText(readAll(t, p)); !strings.Contains(out, "hello from cmd") {
		t.Errorf("output %q lacks cmd.exe's echo", out)
	}
	if got, _ := p.Wait(); got.Code != 3 {
		t.Errorf("Wait() = %+v; want cmd.exe's exit code 3", got)
	}
}

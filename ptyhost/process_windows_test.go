//go:build windows

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

// The child programs: this test binary, re-run in a mode.
func init() {
	testchild.Run(map[string]testchild.Mode{
		"exit": func(args []string) int { // exit N: say so, exit with N
			n, _ := strconv.ParseUint(args[0], 0, 32)
			fmt.Printf("exit %s\n", args[0])
			return int(n)
		},
		"echo": func([]string) int { // echo each line read as <line>
			in := bufio.NewScanner(os.Stdin)
			fmt.Println("ready")
			for in.Scan() {
				fmt.Printf("<%s>\n", in.Text())
			}
			return 0
		},
		"tree": func([]string) int { // a TUI: raw input (Ctrl-C is a key), reads none; starts a grandchild with no console
			signal.Notify(make(chan os.Signal, 1), os.Interrupt)
			if err := rawInput(); err != nil {
				fmt.Println(err)
				return 4
			}
			return startGrandchild(true, windows.DETACHED_PROCESS)
		},
		"orphan": func([]string) int { // start a grandchild and exit at once
			return startGrandchild(false, 0)
		},
		"sleep": func([]string) int { sleepForever(); return 0 },
		"deaf": func(args []string) int { // ignore Ctrl-C, draw nothing, say ready in file args[0]
			signal.Notify(make(chan os.Signal, 1), os.Interrupt)
			if err := os.WriteFile(args[0], []byte("ready"), 0o600); err != nil {
				return 4
			}
			sleepForever()
			return 0
		},
		"ctrlc-exit": func([]string) int { // exit 0 on Ctrl-C
			c := make(chan os.Signal, 1)
			signal.Notify(c, os.Interrupt)
			fmt.Println("ready")
			<-c
			fmt.Println("bye")
			return 0
		},
		"ctrlc-default": func([]string) int { // Ctrl-C ends it the default way
			fmt.Println("ready")
			sleepForever()
			return 0
		},
		"lines": func(args []string) int { // print N numbered lines and exit
			n, _ := strconv.Atoi(args[0])
			w := bufio.NewWriter(os.Stdout)
			for i := range n {
				fmt.Fprintf(w, "line %d\n", i)
			}
			_ = w.Flush()
			return 0
		},
		"args": func(args []string) int { // print each argument quoted
			for _, a := range args {
				fmt.Printf("arg %q\n", a)
			}
			return 0
		},
		"size": func([]string) int { // print the console's size, then again after each line read
			in := bufio.NewScanner(os.Stdin)
			for {
				var info windows.ConsoleScreenBufferInfo
				if err := windows.GetConsoleScreenBufferInfo(windows.Handle(os.Stdout.Fd()), &info); err != nil {
					fmt.Printf("size error %v\n", err)
					return 1
				}
				fmt.Printf("size %dx%d\n", info.Window.Right-info.Window.Left+1, info.Window.Bottom-info.Window.Top+1)
				if !in.Scan() {
					return 0
				}
			}
		},
	})
}

// startGrandchild starts this binary asleep (with creation flags),
// prints its pid, and then waits forever (wait) or exits.
func startGrandchild(wait bool, flags uint32) int {
	c := exec.Command(os.Args[0])
	c.Env = append(os.Environ(), "YUME_TEST_CHILD=sleep")
	c.SysProcAttr = &syscall.SysProcAttr{CreationFlags: flags}
	if err := c.Start(); err != nil {
		fmt.Println(err)
		return 4
	}
	fmt.Printf("grandchild %d\n", c.Process.Pid)
	if wait {
		sleepForever()
	}
	return 0
}

// sleepForever blocks for good (a bare select{} would end the program:
// the runtime reports a deadlock when no goroutine can run).
func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

// rawInput turns the console's input to raw, as a TUI does: Ctrl-C is
// then a key to read, not a signal.
func rawInput() error {
	in := windows.Handle(os.Stdin.Fd())
	var mode uint32
	if err := windows.GetConsoleMode(in, &mode); err != nil {
		return fmt.Errorf("console mode: %w", err)
	}
	return windows.SetConsoleMode(in, mode&^(windows.ENABLE_PROCESSED_INPUT|windows.ENABLE_LINE_INPUT|windows.ENABLE_ECHO_INPUT))
}

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

// grandchildOf reads the pid a tree or orphan child printed and opens it,
// so that its end can be waited for.
func grandchildOf(t *testing.T, p *ptyhost.Process, acc *bytes.Buffer) windows.Handle {
	t.Helper()
	readUntil(t, p, acc, "grandchild ")
	readUntil(t, p, acc, "\n")
	var pid uint32
	text := screenText(acc.Bytes())
	if _, err := fmt.Sscanf(text[strings.Index(text, "grandchild "):], "grandchild %d", &pid); err != nil {
		t.Fatalf("no grandchild pid in %q: %v", text, err)
	}
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		t.Fatalf("open the grandchild %d: %v", pid, err)
	}
	t.Cleanup(func() { _ = windows.CloseHandle(h) })
	return h
}

// waitGone fails unless the process h ends within testTimeout.
func waitGone(t *testing.T, h windows.Handle, what string) {
	t.Helper()
	ev, err := windows.WaitForSingleObject(h, uint32(testTimeout/time.Millisecond))
	if err != nil || ev != windows.WAIT_OBJECT_0 {
		t.Errorf("%s still runs %v after it should have ended (wait: %d, %v)", what, testTimeout, ev, err)
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

func TestWindowsStopEndsTheTree(t *testing.T) {
	const grace = 300 * time.Millisecond
	p := start(t, helper("tree"))
	watchdog(t, p)
	var acc bytes.Buffer
	gc := grandchildOf(t, p, &acc)
	began := time.Now()
	if err := p.Stop(grace); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	took := time.Since(began)
	got, _ := p.Wait()
	waitGone(t, gc, "the grandchild")
	readAll(t, p) // the console closes once the job is empty
	if took < grace {
		t.Errorf("Stop returned after %v, before the grace period %v (the program reads Ctrl-C as a key and ignores it)", took, grace)
	}
	if got != (ptyhost.ExitStatus{Code: -1, Signal: "SIGKILL"}) {
		t.Errorf("Wait() = %+v; want the stop reported as SIGKILL", got)
	}
}

func TestWindowsStopEscalates(t *testing.T) {
	const grace = 300 * time.Millisecond
	ready := filepath.Join(tempDir(t), "ready")
	p := start(t, helper("deaf", ready))
	watchdog(t, p)
	deadline := time.Now().Add(testTimeout)
	for { // it says it is ready in a file: on the console, nothing is drawn
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the child did not start in %v", testTimeout)
		}
		time.Sleep(10 * time.Millisecond) // Polling a condition under a deadline.
	}
	began := time.Now()
	if err := p.Stop(grace); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if took := time.Since(began); took < grace {
		t.Errorf("Stop returned after %v, before the grace period %v (the program ignores Ctrl-C)", took, grace)
	}
	if got, _ := p.Wait(); got != (ptyhost.ExitStatus{Code: -1, Signal: "SIGKILL"}) {
		t.Errorf("Wait() = %+v; want the job's termination, reported as SIGKILL", got)
	}
	readAll(t, p)
}

// wineCtrlC is why the tests of a program's own answer to Ctrl-C skip
// under Wine.
const wineCtrlC = "under Wine, Ctrl-C typed into the console (a key event, by the console shim) calls no Ctrl-C handler of the program the shim started: a program's own answer to Ctrl-C needs a real Windows run"

func TestWindowsStopTypesCtrlC(t *testing.T) {
	if underWine() {
		t.Skip(wineCtrlC)
	}
	p := start(t, helper("ctrlc-exit"))
	watchdog(t, p)
	var acc bytes.Buffer
	readUntil(t, p, &acc, "ready")
	if err := p.Stop(testTimeout); err != nil { // returns once the Ctrl-C ended it
		t.Fatalf("Stop: %v", err)
	}
	if got, _ := p.Wait(); got != (ptyhost.ExitStatus{}) {
		t.Errorf("Wait() = %+v; want exit 0, the program's own answer to Ctrl-C", got)
	}
	if out := screenText(append(acc.Bytes(), readAll(t, p)...)); !strings.Contains(out, "bye") {
		t.Errorf("output %q lacks the program's goodbye", out)
	}
}

func TestWindowsCtrlCDefault(t *testing.T) {
	if underWine() {
		t.Skip(wineCtrlC)
	}
	p := start(t, helper("ctrlc-default"))
	watchdog(t, p)
	var acc bytes.Buffer
	readUntil(t, p, &acc, "ready")
	if _, err := p.Write([]byte{0x03}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(testTimeout):
		t.Fatalf("Ctrl-C did not end the program in %v", testTimeout)
	}
	got, _ := p.Wait()
	if want := (ptyhost.ExitStatus{Code: -1, Signal: "SIGINT"}); got != want {
		t.Errorf("Wait() = %+v; want %+v", got, want)
	}
}

func TestWindowsLeftoverHoldsTheConsole(t *testing.T) {
	p := start(t, helper("orphan"))
	watchdog(t, p)
	var acc bytes.Buffer
	gc := grandchildOf(t, p, &acc)
	<-p.Done()
	if got, _ := p.Wait(); got != (ptyhost.ExitStatus{}) {
		t.Errorf("Wait() = %+v; want exit 0", got)
	}
	// Output does not end while the grandchild lives: Close ends it.
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
	select {
	case err := <-read:
		t.Fatalf("output ended (%v) while the grandchild still runs", err)
	case <-time.After(ptyhost.HeldGrace):
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := <-read; !errors.Is(err, io.EOF) {
		t.Errorf("read after Close: %v; want io.EOF", err)
	}
	waitGone(t, gc, "the grandchild")
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

//go:build windows

package ptyhost

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows connects a console program started with empty standard handles
// to its console; Wine (8.0) does not: such a program reads end of file
// and writes nowhere. Under Wine only, Start runs the program through a
// shim: yume-cli itself (any binary that links ptyhost), started with the
// program in its environment, attached to the pseudo-console. The shim
// opens the console (CONIN$, CONOUT$), runs the program with those as
// its standard handles, and exits with its exit code. It is in the job
// with the program, so Stop and Close end both.
//
// The shim also types Ctrl-C. Wine's conhost, reading a raw 0x03 from the
// pseudo-console's input, ends its input thread (programs/conhost), and
// with it, at random, the console and every program on it (exit status 0,
// no handler called) or only the keys: a menu denied with Ctrl-C stayed
// up for good. Typed as a console key event instead (WriteConsoleInput
// from inside the console), Ctrl-C is a key a program in raw mode reads,
// as on Windows. With processed input on, no Ctrl-C handler of the program
// the shim started is called (Wine 8; the shim ignores Ctrl-C in any case),
// so such a program is ended by Stop after the grace.
// Process.Write sends each 0x03 to the shim on a pipe of its own.

// Environment of the shim: the program's path, its whole command line, and
// the handle of the pipe its Ctrl-Cs come on.
const (
	shimAppEnv  = "YUME_CONSOLE_SHIM_APP"
	shimLineEnv = "YUME_CONSOLE_SHIM_LINE"
	shimKeysEnv = "YUME_CONSOLE_SHIM_KEYS"
)

func init() {
	if app := os.Getenv(shimAppEnv); app != "" {
		os.Exit(runShim(app, os.Getenv(shimLineEnv)))
	}
}

// shimmed returns what CreateProcess runs instead of app and line: this
// binary as the shim, with env carrying them and keys, the inheritable
// handle of the read end of its Ctrl-C pipe.
func shimmed(app, line string, env []string, keys windows.Handle) (shimApp, shimLine string, shimEnv []string, err error) {
	self, err := os.Executable()
	if err != nil {
		return "", "", nil, fmt.Errorf("ptyhost: under Wine the program runs through yume-cli's console shim, and yume-cli's own path is unknown: %w", err)
	}
	shimEnv = append(withoutShimEnv(env), shimAppEnv+"="+app, shimLineEnv+"="+line,
		shimKeysEnv+"="+strconv.FormatUint(uint64(keys), 10))
	return self, windows.ComposeCommandLine([]string{self}), shimEnv, nil
}

// ctrlCPipe is a pipe for the shim's Ctrl-Cs: we write w; its read end is
// an inheritable duplicate (r), for the shim alone (closeShimEnd once it
// has started).
type ctrlCPipe struct {
	w *os.File
	r windows.Handle
}

func newCtrlCPipe() (*ctrlCPipe, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("ptyhost: the console shim's Ctrl-C pipe: %w", err)
	}
	defer r.Close()
	cur := windows.CurrentProcess()
	var h windows.Handle
	if err := windows.DuplicateHandle(cur, windows.Handle(r.Fd()), cur, &h, 0, true, windows.DUPLICATE_SAME_ACCESS); err != nil {
		_ = w.Close() // Best effort.
		return nil, fmt.Errorf("ptyhost: the console shim's Ctrl-C pipe: %w", err)
	}
	return &ctrlCPipe{w: w, r: h}, nil
}

// closeShimEnd closes our copy of the shim's end.
func (c *ctrlCPipe) closeShimEnd() {
	if c.r != 0 {
		_ = windows.CloseHandle(c.r) // Best effort.
		c.r = 0
	}
}

// withoutShimEnv is env without the shim's variables: the program must not
// become a shim itself.
func withoutShimEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		upper := strings.ToUpper(kv)
		if strings.HasPrefix(upper, shimAppEnv+"=") || strings.HasPrefix(upper, shimLineEnv+"=") || strings.HasPrefix(upper, shimKeysEnv+"=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// runShim runs the program on the console's own handles and returns its
// exit code.
func runShim(app, line string) int {
	// A Ctrl-C typed into the console reaches every process attached to
	// it: it is the program's to act on, while the shim waits to report
	// how the program ended.
	signal.Notify(make(chan os.Signal, 1), os.Interrupt)
	in, inErr := os.OpenFile("CONIN$", os.O_RDWR, 0)
	out, outErr := os.OpenFile("CONOUT$", os.O_RDWR, 0)
	if err := errors.Join(inErr, outErr); err != nil {
		return 126 // Nowhere to say it: the console is what failed.
	}
	if h, err := strconv.ParseUint(os.Getenv(shimKeysEnv), 10, 64); err == nil {
		go typeCtrlC(os.NewFile(uintptr(h), "ctrl-c"), windows.Handle(in.Fd()))
	}
	cmd := &exec.Cmd{
		Path:        app,
		Args:        []string{app},
		Env:         withoutShimEnv(os.Environ()),
		Stdin:       in,
		Stdout:      out,
		Stderr:      out,
		SysProcAttr: &syscall.SysProcAttr{CmdLine: line},
	}
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exitErr):
		return exitErr.ExitCode()
	}
	fmt.Fprintf(out, "yume-cli console shim: %v\r\n", err)
	return 127
}

// keyEventRecord is an INPUT_RECORD holding a KEY_EVENT_RECORD.
type keyEventRecord struct {
	EventType       uint16
	_               uint16
	KeyDown         int32
	RepeatCount     uint16
	VirtualKeyCode  uint16
	VirtualScanCode uint16
	UnicodeChar     uint16
	ControlKeyState uint32
}

var procWriteConsoleInputW = windows.NewLazySystemDLL("kernel32.dll").NewProc("WriteConsoleInputW")

// typeCtrlC types Ctrl-C into the console (conin) for each 0x03 read from
// keys, until keys ends.
func typeCtrlC(keys *os.File, conin windows.Handle) {
	const keyEvent, leftCtrl = 1, 0x0008
	press := []keyEventRecord{
		{EventType: keyEvent, KeyDown: 1, RepeatCount: 1, VirtualKeyCode: 'C', VirtualScanCode: 0x2e, UnicodeChar: 3, ControlKeyState: leftCtrl},
		{EventType: keyEvent, KeyDown: 0, RepeatCount: 1, VirtualKeyCode: 'C', VirtualScanCode: 0x2e, UnicodeChar: 3, ControlKeyState: leftCtrl},
	}
	buf := make([]byte, 64)
	for {
		n, err := keys.Read(buf)
		for _, b := range buf[:n] {
			if b == 0x03 {
				var written uint32
				_, _, _ = procWriteConsoleInputW.Call(uintptr(conin), uintptr(unsafe.Pointer(&press[0])), uintptr(len(press)), uintptr(unsafe.Pointer(&written))) // Best effort, as a key.
			}
		}
		if err != nil {
			return
		}
	}
}

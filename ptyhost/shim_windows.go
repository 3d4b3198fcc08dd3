//go:build windows

package ptyhost

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

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

// Environment of the shim: the program's path and its whole command line.
const (
	shimAppEnv  = "YUME_CONSOLE_SHIM_APP"
	shimLineEnv = "YUME_CONSOLE_SHIM_LINE"
)

func init() {
	if app := os.Getenv(shimAppEnv); app != "" {
		os.Exit(runShim(app, os.Getenv(shimLineEnv)))
	}
}

// shimmed returns what CreateProcess runs instead of app and line: this
// binary as the shim, with env carrying them.
func shimmed(app, line string, env []string) (shimApp, shimLine string, shimEnv []string, err error) {
	self, err := os.Executable()
	if err != nil {
		return "", "", nil, fmt.Errorf("ptyhost: under Wine the program runs through yume-cli's console shim, and yume-cli's own path is unknown: %w", err)
	}
	shimEnv = append(withoutShimEnv(env), shimAppEnv+"="+app, shimLineEnv+"="+line)
	return self, windows.ComposeCommandLine([]string{self}), shimEnv, nil
}

// withoutShimEnv is env without the shim's variables: the program must not
// become a shim itself.
func withoutShimEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		upper := strings.ToUpper(kv)
		if strings.HasPrefix(upper, shimAppEnv+"=") || strings.HasPrefix(upper, shimLineEnv+"=") {
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

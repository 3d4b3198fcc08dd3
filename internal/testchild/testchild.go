// Package testchild lets a test binary be its own child program: a test
// re-runs os.Args[0] with a mode in the environment, and the binary's init
// runs that mode instead of the tests. Precise, portable children, without
// depending on what the machine has installed.
package testchild

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/creack/pty"
)

// env names the mode a re-run test binary plays.
const env = "YUME_TEST_CHILD"

// Mode is a child's main: it gets the arguments after the binary's name
// and returns the exit code.
type Mode func(args []string) int

// Run plays the mode the environment names, if any, and exits; call it
// from an init (not TestMain), so other test files stay free to define
// TestMain.
func Run(modes map[string]Mode) {
	name := os.Getenv(env)
	if name == "" {
		return
	}
	m, ok := modes[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "testchild: unknown mode %q\n", name)
		os.Exit(2)
	}
	os.Exit(m(os.Args[1:]))
}

// Command is the argv and environment that re-run this test binary as
// mode with args.
func Command(mode string, args ...string) (argv, environ []string) {
	return append([]string{os.Args[0]}, args...), append(os.Environ(), env+"="+mode)
}

// StartRaw starts mode in a terminal of plain creack/pty, without
// ptyhost: the floor that benchmarks compare against.
func StartRaw(tb testing.TB, mode string, args ...string) (*os.File, *exec.Cmd) {
	tb.Helper()
	argv, environ := Command(mode, args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = environ
	f, err := pty.Start(cmd)
	if err != nil {
		tb.Fatal(err)
	}
	return f, cmd
}

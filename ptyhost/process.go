package ptyhost

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"
)

// DefaultGrace is how long Close lets the child's process group react to
// SIGTERM and SIGHUP before it sends SIGKILL.
const DefaultGrace = 2 * time.Second

// Window size used when Options leaves Cols or Rows at zero: wide enough that
// TUIs do not wrap suggested commands, tall enough for a menu and its prompt.
const (
	defaultCols = 120
	defaultRows = 40
)

// readBufSize is the ReadChunk buffer: large enough that a flood of output
// costs one syscall per 64 KiB, the most a Linux PTY hands over at once.
const readBufSize = 64 << 10

// defaultTerm is the TERM a child gets when the environment names none; the
// heuristics screen emulates an xterm-compatible terminal.
const defaultTerm = "xterm-256color"

// Options says what to run in the pseudo-terminal and how.
type Options struct {
	Argv []string // argv[0] is looked up in PATH (or is a path); no shell, no quoting
	Env  []string // nil means os.Environ(); TERM defaults to xterm-256color if absent
	Dir  string   // working directory; "" means the current one
	Cols int      // window width in cells; 0 means 120
	Rows int      // window height in cells; 0 means 40
}

// NotFoundError reports that the program to run does not exist (or is not
// executable) where Options.Argv[0] says. Err is the underlying error, such as
// exec.ErrNotFound or fs.ErrNotExist.
type NotFoundError struct {
	Name string // Options.Argv[0] as given
	Err  error
}

// Error tells the user what to do about it.
func (e *NotFoundError) Error() string {
	if errors.Is(e.Err, fs.ErrPermission) {
		return fmt.Sprintf("provider binary %q is not executable; fix its permissions or pass --bin", e.Name)
	}
	where := " in PATH"
	if strings.ContainsRune(e.Name, os.PathSeparator) {
		where = "" // A path was given; PATH played no part.
	}
	return fmt.Sprintf("provider binary %q not found%s; install it or pass --bin", e.Name, where)
}

// Unwrap returns the lookup error, so errors.Is(err, exec.ErrNotFound) works.
func (e *NotFoundError) Unwrap() error { return e.Err }

// lookPath resolves argv[0] the way exec.Command would, but turns "no such
// program" into a *NotFoundError so callers can print one clear sentence.
func lookPath(name string) (string, error) {
	if name == "" {
		return "", errors.New("ptyhost: no program to run: Options.Argv is empty; pass the command line to start")
	}
	path, err := exec.LookPath(name)
	switch {
	case err == nil:
		return path, nil
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return "", &NotFoundError{Name: name, Err: err}
	default:
		return "", fmt.Errorf("ptyhost: look up %q: %w", name, err)
	}
}

// dirOrCwd names the directory a start error happened in.
func dirOrCwd(dir string) string {
	if dir != "" {
		return dir
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "."
}

// environ returns the child's environment: Env (or ours) with TERM added when
// it is missing, because a TUI without TERM falls back to a dumb terminal and
// draws nothing the rules expect.
func (o Options) environ() []string {
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, "TERM=") {
			return env
		}
	}
	// Copy so that appending never writes into the caller's backing array.
	out := make([]string, len(env), len(env)+1)
	copy(out, env)
	return append(out, "TERM="+defaultTerm)
}

// size returns the window size with defaults applied, or an error for a size
// a terminal cannot have.
func (o Options) size() (cols, rows int, err error) {
	cols, rows = o.Cols, o.Rows
	if cols == 0 {
		cols = defaultCols
	}
	if rows == 0 {
		rows = defaultRows
	}
	return cols, rows, checkSize(cols, rows)
}

// checkSize rejects sizes the winsize ioctl cannot carry (uint16 fields) and
// non-positive ones, which would make the child's screen vanish.
func checkSize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > 0xFFFF || rows > 0xFFFF {
		return fmt.Errorf("ptyhost: window size %dx%d is out of range; columns and rows must be 1..65535", cols, rows)
	}
	return nil
}

// Process satisfies the driver's Terminal interface.
var _ Terminal = (*Process)(nil)

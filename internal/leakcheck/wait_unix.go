//go:build unix

package leakcheck

import (
	"errors"
	"syscall"
	"testing"
	"time"
)

// Gone reports whether process pid is dead: no longer listed, or a zombie
// waiting for its parent to reap it.
func Gone(pid int) bool {
	// Kill with signal 0 fails with ESRCH once the process is gone; a
	// zombie still answers it, but its state in /proc says Z.
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	state := State(pid)
	return state == "Z" || state == "X"
}

// WaitGone fails t (Errorf, so every process of a test is checked) if
// pid is still alive after limit, and kills it so it does not outlive the
// test.
func WaitGone(t testing.TB, pid int, limit time.Duration) {
	t.Helper()
	if !Within(limit, func() bool { return Gone(pid) }) {
		t.Errorf("process %d is still alive after %v (state %s)", pid, limit, State(pid))
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

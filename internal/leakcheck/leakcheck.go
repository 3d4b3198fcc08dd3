// Package leakcheck fails a test that leaves zombie children, open file
// descriptors or goroutines behind. It reads /proc (Linux); where /proc is
// missing it checks what it can (descriptors via /dev/fd, goroutines) and
// skips the rest. The fd table and goroutine count are per process, so do
// not use it in tests that call t.Parallel.
package leakcheck

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

// Timeout is how long Check's cleanup lets things settle (a child being
// reaped, a goroutine returning) before it calls them leaked.
const Timeout = 5 * time.Second

// settle is Timeout, shortened by this package's own tests of failures.
var settle = Timeout

// runtimeFDs are descriptors the Go runtime opens once, lazily, and keeps:
// the netpoller's epoll instance and its wake-up eventfd. They appear after
// the first test that does I/O and are not that test's leak.
var runtimeFDs = []string{"anon_inode:[eventpoll]", "anon_inode:[eventfd]"}

// Check records the open descriptors and running goroutines now and
// registers a cleanup that fails t if, within Timeout after the test, a child
// of this process is a zombie, a descriptor opened since is still open, or a
// goroutine started since is still running. Call it first in the test, so
// its cleanup runs after the test's own.
func Check(t testing.TB) {
	t.Helper()
	before, err := OpenFDs()
	if err != nil {
		t.Fatalf("leakcheck: %v", err)
	}
	goroutines := goroutineStacks()
	t.Cleanup(func() {
		deadline := time.Now().Add(settle)
		var problems []string
		for {
			problems = problems[:0]
			problems = append(problems, zombieProblems()...)
			problems = append(problems, fdProblems(before)...)
			problems = append(problems, goroutineProblems(goroutines)...)
			if len(problems) == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond) // Polling a condition under a deadline.
		}
		for _, p := range problems {
			t.Errorf("leakcheck: %s", p)
		}
	})
}

// zombieProblems describes each zombie child, or the error reading /proc.
func zombieProblems() []string {
	pids, err := Zombies()
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for _, pid := range pids {
		out = append(out, fmt.Sprintf("child %d is a zombie: nobody reaped it (call Wait, or Close)", pid))
	}
	return out
}

// fdProblems describes each descriptor open now that was not open (to the
// same file) in before.
func fdProblems(before map[int]string) []string {
	now, err := OpenFDs()
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for _, fd := range sortedKeys(now) {
		target := now[fd]
		if old, ok := before[fd]; ok && old == target {
			continue
		}
		if isRuntimeFD(target) {
			continue
		}
		out = append(out, fmt.Sprintf("descriptor %d (%s) was opened during the test and is still open", fd, target))
	}
	return out
}

func isRuntimeFD(target string) bool {
	for _, r := range runtimeFDs {
		if target == r {
			return true
		}
	}
	return false
}

func sortedKeys(m map[int]string) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

// goroutineProblems describes each goroutine running now that was not
// running before (goroutine ids are never reused).
func goroutineProblems(before map[string]string) []string {
	var out []string
	for id, stack := range goroutineStacks() {
		if _, ok := before[id]; ok || isRuntimeGoroutine(stack) {
			continue
		}
		out = append(out, fmt.Sprintf("goroutine %s was started during the test and is still running:\n%s", id, stack))
	}
	sort.Strings(out)
	return out
}

// isRuntimeGoroutine reports goroutines that, once started, live for the
// rest of the process by design: os/signal's delivery loop.
func isRuntimeGoroutine(stack string) bool {
	return strings.Contains(stack, "os/signal.loop") || strings.Contains(stack, "runtime.ensureSigM")
}

// goroutineStacks returns every goroutine's stack by goroutine id.
func goroutineStacks() map[string]string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := make(map[string]string)
	for _, g := range strings.Split(string(buf), "\n\n") {
		// Each stack starts "goroutine 42 [state]:".
		f := strings.Fields(g)
		if len(f) >= 2 && f[0] == "goroutine" {
			out[f[1]] = g
		}
	}
	return out
}

// fdDir is where this process's descriptors are listed.
func fdDir() string {
	if _, err := os.Stat("/proc/self/fd"); err == nil {
		return "/proc/self/fd"
	}
	return "/dev/fd"
}

package leakcheck

import (
	"testing"
	"time"
)

// Within polls cond until it holds or limit passes, and reports whether
// it held. It is the one wait-until of the tests: a condition polled
// under a deadline, never a sleep standing in for synchronisation.
func Within(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return cond()
		}
		time.Sleep(2 * time.Millisecond) // Polling a condition under a deadline.
	}
	return true
}

// WaitUntil is Within that fails t (Fatalf) with what when cond still
// does not hold after limit.
func WaitUntil(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Within(limit, cond) {
		t.Fatalf("after %v: %s", limit, what)
	}
}

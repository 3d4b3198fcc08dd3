//go:build linux && (amd64 || arm64)

package ptyhost_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/ptyhost"
)

// TestWokeSince: a key that reached the terminal but not the program
// (here: a character of a line not ended, which the kernel echoes and the
// program's read does not return) leaves its reader asleep; the Enter
// that ends the line wakes it. The snapshot is taken while it reads.
func TestWokeSince(t *testing.T) {
	echo := helper("echo")
	p, err := ptyhost.Start(ptyhost.Options{Argv: echo.Argv, Env: echo.Env, Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var mu sync.Mutex
	var out strings.Builder
	go func() {
		for {
			chunk, _, err := p.ReadChunk()
			mu.Lock()
			out.Write(chunk)
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	until := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) { // Polling a condition under a deadline.
			if time.Now().After(deadline) {
				mu.Lock()
				defer mu.Unlock()
				t.Fatalf("%s: not within 10s (screen %q)", what, out.String())
			}
		}
	}
	printed := func(s string) func() bool {
		return func() bool { mu.Lock(); defer mu.Unlock(); return strings.Contains(out.String(), s) }
	}
	until("the helper reads its terminal", func() bool { return p.InputWait() == ptyhost.InputReading })
	w := p.Waiters()
	if w.Empty() {
		t.Fatal("no waiter in a program blocked reading its terminal")
	}
	if _, err := p.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	until("the terminal echoes x", printed("x"))
	if woke, known := ptyhost.WokeSince(p, w); woke || !known {
		t.Errorf("before the line ended: WokeSince = %v, %v; want false, true (the read has not returned)", woke, known)
	}
	if _, err := p.Write([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	until("the helper prints the line", printed("<x"))
	if woke, known := ptyhost.WokeSince(p, w); !woke || !known {
		t.Errorf("after the line: WokeSince = %v, %v; want true, true", woke, known)
	}
}

// TestWaitersBusy: a program on a CPU waits for nothing: no evidence
// either way.
func TestWaitersBusy(t *testing.T) {
	p, err := ptyhost.Start(ptyhost.Options{Argv: []string{"sh", "-c", "while :; do :; done"}, Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for deadline := time.Now().Add(10 * time.Second); p.InputWait() != ptyhost.InputRunning; time.Sleep(5 * time.Millisecond) { // Polling a condition under a deadline.
		if time.Now().After(deadline) {
			t.Fatal("the loop never ran")
		}
	}
	w := p.Waiters()
	if !w.Empty() {
		t.Errorf("a busy loop has waiters: %+v", w)
	}
	if _, known := ptyhost.WokeSince(p, w); known {
		t.Error("WokeSince known with no waiter")
	}
}

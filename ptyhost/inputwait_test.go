//go:build linux && (amd64 || arm64)

package ptyhost_test

import (
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/ptyhost"
)

// TestInputWait: the operating system says whether the program in the
// foreground reads its terminal, polls, or is busy, for real programs.
func TestInputWait(t *testing.T) {
	goReads := helper("echo")
	for _, c := range []struct {
		name  string
		argv  []string
		env   []string
		want  ptyhost.InputState
		ready string // printed once started (""; at once): the look's bound runs from then
	}{
		{"a Go program reads in a thread of its own", goReads.Argv, goReads.Env, ptyhost.InputReading, ""},
		{"sh read", []string{"sh", "-c", "printf 'Continue? '; read a"}, nil, ptyhost.InputReading, ""},
		{"a child runs", []string{"sh", "-c", "sleep 30"}, nil, ptyhost.InputBusy, ""},
		{"the foreground job reads", []string{"sh", "-c", "sleep 0.01; cat"}, nil, ptyhost.InputReading, ""},
		// Looked at while it waits for its child, and found so, then
		// reading: a thread that ran since is looked at again (threadMemo).
		{"sh reads once its child ends", []string{"sh", "-c", "sleep 0.2; read a"}, nil, ptyhost.InputReading, ""},
		{"a busy loop", []string{"sh", "-c", "while :; do :; done"}, nil, ptyhost.InputRunning, ""},
		// python3 took 2.2–4.2 s to start on a machine at load 30: its
		// start is not the look's to bound.
		{"python select", []string{"python3", "-c", "import select,sys; sys.stdout.write('ready'); sys.stdout.flush(); select.select([sys.stdin],[],[])"}, nil, ptyhost.InputPolling, "ready"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := ptyhost.Start(ptyhost.Options{Argv: c.argv, Env: c.env, Cols: 80, Rows: 24})
			if err != nil {
				t.Skip(err) // python3 missing
			}
			defer p.Close()
			started := make(chan struct{})
			go func(ready string) { // drain: a program blocked on a full terminal is busy
				var out []byte
				for {
					chunk, _, err := p.ReadChunk()
					if out = append(out, chunk...); ready != "" && strings.Contains(string(out), ready) {
						close(started)
						ready = ""
					}
					if err != nil {
						return
					}
				}
			}(c.ready)
			if c.ready != "" {
				select {
				case <-started:
				case <-time.After(time.Minute): // a start, not a look: bounded only against a hang
					t.Fatalf("%s did not start", c.argv[0])
				}
			}
			var got ptyhost.InputState
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) { // Polling a condition under a deadline.
				if got = p.InputWait(); got == c.want {
					return
				}
			}
			t.Errorf("InputWait = %v, want %v", got, c.want)
		})
	}
}

// BenchmarkInputWait: one look at a Go program blocked reading its
// terminal, as the live source takes once output pauses (a question's
// tool_use waits on it).
func BenchmarkInputWait(b *testing.B) {
	goReads := helper("echo")
	p, err := ptyhost.Start(ptyhost.Options{Argv: goReads.Argv, Env: goReads.Env, Cols: 80, Rows: 24})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	go func() {
		for {
			if _, _, err := p.ReadChunk(); err != nil {
				return
			}
		}
	}()
	for deadline := time.Now().Add(5 * time.Second); p.InputWait() != ptyhost.InputReading; time.Sleep(time.Millisecond) { // Polling a condition under a deadline.
		if time.Now().After(deadline) {
			b.Fatal("the helper never read its terminal")
		}
	}
	for b.Loop() {
		if p.InputWait() != ptyhost.InputReading {
			b.Fatal("not reading")
		}
	}
}

// BenchmarkInputWaitPolling: one look at a program with parked threads
// that polls its terminal, as a TUI between frames: no thread reads, so
// every thread is looked at.
func BenchmarkInputWaitPolling(b *testing.B) {
	const script = "import threading,select,sys\n" +
		"for _ in range(16): threading.Thread(target=threading.Event().wait, daemon=True).start()\n" +
		"sys.stdout.write('ready'); sys.stdout.flush(); select.select([sys.stdin],[],[])"
	p, err := ptyhost.Start(ptyhost.Options{Argv: []string{"python3", "-c", script}, Cols: 80, Rows: 24})
	if err != nil {
		b.Skip(err) // python3 missing
	}
	defer p.Close()
	go func() {
		for {
			if _, _, err := p.ReadChunk(); err != nil {
				return
			}
		}
	}()
	for deadline := time.Now().Add(time.Minute); p.InputWait() != ptyhost.InputPolling; time.Sleep(time.Millisecond) { // Polling a condition under a deadline.
		if time.Now().After(deadline) {
			b.Fatal("python3 never polled its terminal")
		}
	}
	for b.Loop() {
		if st := p.InputWait(); st != ptyhost.InputPolling {
			b.Fatalf("InputWait = %v, want polling", st)
		}
	}
}

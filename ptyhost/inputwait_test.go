//go:build linux && (amd64 || arm64)

package ptyhost_test

import (
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/ptyhost"
)

// TestInputWait: the operating system says whether the program in the
// foreground reads its terminal, polls, or is busy, for real programs.
func TestInputWait(t *testing.T) {
	goReads := helper("echo")
	for _, c := range []struct {
		name string
		argv []string
		env  []string
		want ptyhost.InputState
	}{
		{"a Go program reads in a thread of its own", goReads.Argv, goReads.Env, ptyhost.InputReading},
		{"sh read", []string{"sh", "-c", "printf 'Continue? '; read a"}, nil, ptyhost.InputReading},
		{"a child runs", []string{"sh", "-c", "sleep 30"}, nil, ptyhost.InputBusy},
		{"the foreground job reads", []string{"sh", "-c", "sleep 0.01; cat"}, nil, ptyhost.InputReading},
		{"a busy loop", []string{"sh", "-c", "while :; do :; done"}, nil, ptyhost.InputRunning},
		{"python select", []string{"python3", "-c", "import select,sys; select.select([sys.stdin],[],[])"}, nil, ptyhost.InputPolling},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := ptyhost.Start(ptyhost.Options{Argv: c.argv, Env: c.env, Cols: 80, Rows: 24})
			if err != nil {
				t.Skip(err) // python3 missing
			}
			defer p.Close()
			go func() { // drain: a program blocked on a full terminal is busy
				for {
					if _, _, err := p.ReadChunk(); err != nil {
						return
					}
				}
			}()
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

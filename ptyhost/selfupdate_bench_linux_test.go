package ptyhost

import (
	"os/exec"
	"testing"
)

// BenchmarkSelfUpdates: one walk of the tree under this process, as
// yume-cli takes every second, with a child of 17 threads (a TUI's
// runtime) under it.
func BenchmarkSelfUpdates(b *testing.B) {
	cmd := exec.Command("python3", "-c", "import threading,time\n"+
		"for _ in range(16): threading.Thread(target=threading.Event().wait, daemon=True).start()\n"+
		"time.sleep(600)")
	if err := cmd.Start(); err != nil {
		b.Skip(err) // python3 missing
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	for b.Loop() {
		if got := SelfUpdates(); len(got) != 0 {
			b.Fatalf("SelfUpdates = %q", got)
		}
	}
}

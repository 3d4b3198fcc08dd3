package ptyhost

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestProcFDs: a kept /proc file reads what is true now, a task that
// ended reads nothing and keeps nothing open, and nothing stays open
// once the program is done.
func TestProcFDs(t *testing.T) {
	t.Run("a kept file is read afresh", func(t *testing.T) {
		var c procFDs
		defer c.close()
		runtime.LockOSThread() // this thread's counters, on this thread
		defer runtime.UnlockOSThread()
		pid, tid := os.Getpid(), unix.Gettid()
		k := procKey{tid, procSchedstat}
		var buf [128]byte
		before := string(c.read(pid, k, buf[:]))
		for i := 0; i < 3 && string(c.read(pid, k, buf[:])) == before; i++ {
			spin() // on a CPU: its counters move
		}
		if after := string(c.read(pid, k, buf[:])); after == before || after == "" {
			t.Fatalf("schedstat read through a kept file: %q, then %q: not read again", before, after)
		}
		if c.held() != 1 {
			t.Fatalf("%d files kept, want 1", c.held())
		}
	})

	t.Run("a process and its leader thread keep their files apart", func(t *testing.T) {
		var c procFDs
		defer c.close()
		pid := os.Getpid()
		var buf [4096]byte
		for i := 0; i < 3; i++ { // as a walk reads them, every look
			for _, k := range []procKey{{pid, procStat}, {pid, procChildren}, {pid, procSchedstat}, {pid, procTaskStat}, {pid, procSyscall}} {
				if c.read(pid, k, buf[:]) == nil && k.file != procChildren {
					t.Fatalf("%s: not read", k.path(pid))
				}
			}
			c.threadsOf(pid)
		}
		if c.held() != 6 {
			t.Fatalf("%d files kept after three walks, want 6: an anchor opened again dropped the other kind's files", c.held())
		}
	})

	t.Run("a task that ended reads nothing and keeps nothing", func(t *testing.T) {
		var c procFDs
		defer c.close()
		cmd := exec.Command("sleep", "60")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pid := cmd.Process.Pid
		var buf [512]byte
		for _, k := range []procKey{{pid, procStat}, {pid, procSchedstat}, {pid, procTaskStat}} {
			if c.read(pid, k, buf[:]) == nil {
				t.Fatalf("%s: not read while it runs", k.path(pid))
			}
		}
		_ = cmd.Process.Kill() // it is ours
		_ = cmd.Wait()         // reaped: its files read ESRCH
		// A thread's own stat first, as a walk that raced its end reads it.
		if b := c.read(pid, procKey{pid, procTaskStat}, buf[:]); b != nil {
			t.Fatalf("an ended thread's stat read %q", b)
		}
		if c.held() != 2 {
			t.Fatalf("%d files kept after an ended thread's stat read nothing, want 2 (the anchors, not read yet)", c.held())
		}
		if b := c.read(pid, procKey{pid, procStat}, buf[:]); b != nil {
			t.Fatalf("an ended process's stat read %q", b)
		}
		if b := c.read(pid, procKey{pid, procSchedstat}, buf[:]); b != nil {
			t.Fatalf("an ended thread's schedstat read %q", b)
		}
		if got := c.threadsOf(pid); len(got) != 1 || got[0] != pid {
			t.Fatalf("an ended process's threads: %v", got)
		}
		if c.held() != 0 {
			t.Fatalf("%d files kept of an ended process", c.held())
		}
	})

	t.Run("kept files are bounded", func(t *testing.T) {
		var c procFDs
		defer c.close()
		release := make(chan struct{})
		defer close(release)
		locked := make(chan struct{})
		for range maxProcFDs / 3 { // a thread each: more files than kept
			go func() {
				runtime.LockOSThread()
				locked <- struct{}{}
				<-release
			}()
			<-locked
		}
		pid := os.Getpid()
		var buf [512]byte
		for _, tid := range threads(pid) {
			for _, f := range []procName{procSchedstat, procTaskStat, procSyscall} {
				c.read(pid, procKey{tid, f}, buf[:])
			}
		}
		if c.held() == 0 || c.held() > maxProcFDs {
			t.Fatalf("%d files kept, want 1 to %d", c.held(), maxProcFDs)
		}
	})

	t.Run("once closed, nothing is kept", func(t *testing.T) {
		var c procFDs
		pid := os.Getpid()
		var buf [512]byte
		c.read(pid, procKey{pid, procStat}, buf[:])
		c.close()
		if c.held() != 0 {
			t.Fatalf("%d files kept after close", c.held())
		}
		if b := c.read(pid, procKey{pid, procStat}, buf[:]); !bytes.Contains(b, []byte(")")) {
			t.Fatalf("a late look's stat: %q", b)
		}
		if len(c.threadsOf(pid)) == 0 || c.held() != 0 {
			t.Fatalf("a late look kept %d files", c.held())
		}
	})
}

// spin stays on a CPU for a few milliseconds.
func spin() {
	x := 0
	for i := 0; i < 20_000_000; i++ {
		x += i
	}
	spinSink = x
}

var spinSink int

// held is how many files c keeps.
func (c *procFDs) held() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.fds)
}

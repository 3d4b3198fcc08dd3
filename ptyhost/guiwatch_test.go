//go:build unix

package ptyhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestGUIWatchSeesTheReaderGo: stdout as a pipe or a socket whose reader
// closes it: Gone says so, and Done is closed, its Context ended with
// ErrGUIGone; stdout as a regular file is not watched at all (nothing
// reads it to go away). Gone is given until a child forked at that
// instant by another goroutine has exec'd (it holds the reader until
// then, close-on-exec or not), and a failure names who still holds the
// reader: "no process" means a reference that is not a descriptor, such
// as a poll in progress.
func TestGUIWatchSeesTheReaderGo(t *testing.T) {
	cases := []struct {
		name string
		open func(t *testing.T) (out, reader *os.File)
	}{
		{"pipe", func(t *testing.T) (*os.File, *os.File) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			return w, r
		}},
		{"socket", func(t *testing.T) (*os.File, *os.File) {
			fds := socketPair(t)
			return os.NewFile(uintptr(fds[0]), "out"), os.NewFile(uintptr(fds[1]), "reader")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, reader := c.open(t)
			defer out.Close()
			g := WatchGUI(out)
			ctx, cancel := g.Context(context.Background())
			defer cancel()
			if g.Gone() {
				t.Fatalf("gone while the reader is there: %s", g.Why())
			}
			held := holders(reader)
			reader.Close()
			if !goneWithin(g, time.Second) || g.Why() != whyReaderClosed {
				t.Errorf("Gone %v (%q) 1s after the reader closed; the reader is still held by: %s", g.Gone(), g.Why(), held())
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
				t.Fatalf("the context did not end within 1s of the reader's close; the reader is still held by: %s", held())
			}
			if !GUIGone(ctx) || !errors.Is(context.Cause(ctx), ErrGUIGone) {
				t.Errorf("cause %v", context.Cause(ctx))
			}
		})
	}
	t.Run("the watch itself, not a look", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		g := WatchGUI(w)
		held := holders(r)
		r.Close()
		select {
		case <-g.Done():
		case <-time.After(time.Second):
			t.Fatalf("Done not closed within 1s of the reader's close; the reader is still held by: %s", held())
		}
	})
	t.Run("file", func(t *testing.T) {
		f, err := os.Create(filepath.Join(t.TempDir(), "out"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		g := WatchGUI(f)
		if _, err := f.WriteString("line\n"); err != nil || g.Gone() {
			t.Errorf("a file's watch: gone %v (%q), write %v", g.Gone(), g.Why(), err)
		}
		if g.fd >= 0 {
			// Polled for nothing, it would wait forever, and once f is
			// closed its number is another file's, held by the poll.
			t.Errorf("a regular file's descriptor %d is watched: a file has no reader to lose", g.fd)
		}
	})
}

// TestGUIWatchOwnsWhatItPolls: the watched file's owner may close it while
// the watch waits, and the next file opened takes its number. The watch
// polls a descriptor of its own: it neither holds that next file open
// after its own close (a -race -count=50 run saw a socket's reader close
// go unseen for a second, held by a poll of a number no longer the
// watch's) nor loses the file it watches, and it lets its descriptor go
// once the GUI is gone. Rounds, because the watch's goroutine may be
// anywhere when the owner closes.
func TestGUIWatchOwnsWhatItPolls(t *testing.T) {
	for round := 0; round < 50; round++ {
		r1, w1, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		g1 := WatchGUI(w1)
		n := w1.Fd()
		w1.Close() // n is free: the socket pair below takes it
		fds := socketPair(t)
		if uintptr(fds[0]) == n {
			fds[0], fds[1] = fds[1], fds[0] // the reader is the one on n
		}
		out, reader := os.NewFile(uintptr(fds[0]), "out"), os.NewFile(uintptr(fds[1]), "reader")
		g2 := WatchGUI(out)
		held := holders(reader)
		reader.Close()
		if !goneWithin(g2, time.Second) {
			t.Fatalf("round %d: a socket's reader closed on the number a closed pipe's watch had: Gone false 1s after; the reader is still held by: %s", round, held())
		}
		out.Close()
		r1.Close()
		if !goneWithin(g1, time.Second) {
			t.Fatalf("round %d: the pipe its owner closed: Gone false 1s after its reader closed too", round)
		}
		for _, g := range []*GUIWatch{g1, g2} {
			if !releasedWithin(g, time.Second) {
				t.Fatalf("round %d: the watch still holds its descriptor 1s after the GUI went", round)
			}
		}
	}
}

// socketPair is a connected pair of Unix sockets, close-on-exec as
// os.Pipe's are: a child another goroutine forks meanwhile must not keep
// an end for its whole life.
func socketPair(t *testing.T) [2]int {
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	return fds
}

// releasedWithin waits until the watch has let its descriptor go.
func releasedWithin(g *GUIWatch, d time.Duration) bool {
	for end := time.Now().Add(d); ; time.Sleep(time.Millisecond) {
		g.mu.Lock()
		fd := g.fd
		g.mu.Unlock()
		if fd < 0 {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// TestGUIWatchLost: a failed write says the GUI went away; the first
// reason stays. A nil watch never goes.
func TestGUIWatchLost(t *testing.T) {
	g := WatchGUI(nil)
	g.Lost("writing stdout failed")
	g.Lost("another")
	if !g.Gone() || g.Why() != "writing stdout failed" {
		t.Errorf("Gone %v, why %q", g.Gone(), g.Why())
	}
	var none *GUIWatch
	ctx, cancel := none.Context(context.Background())
	defer cancel()
	if none.Gone() || none.Done() != nil || ctx.Err() != nil {
		t.Error("a nil watch went")
	}
}

// goneWithin asks Gone until it says yes or d has passed: what it looks at
// is the kernel's, which has no event to wait on but the watch's own.
func goneWithin(g *GUIWatch, d time.Duration) bool {
	for end := time.Now().Add(d); ; time.Sleep(time.Millisecond) {
		if g.Gone() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// holders returns a function that names the processes holding f's open
// file (read from /proc; "unknown" where there is none), to tell why a
// close went unseen.
func holders(f *os.File) func() string {
	target, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
	return func() string {
		if err != nil {
			return "unknown (no /proc)"
		}
		var who []string
		fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
		for _, fd := range fds {
			if l, _ := os.Readlink(fd); l == target {
				pid := strings.Split(fd, "/")[2]
				cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline")
				stat, _ := os.ReadFile("/proc/" + pid + "/stat")
				who = append(who, fmt.Sprintf("pid %s (%q, stat %.60q)", pid, strings.ReplaceAll(string(cmd), "\x00", " "), stat))
			}
		}
		if len(who) == 0 {
			return "no process (" + target + "): a reference that is no descriptor, such as a poll in progress"
		}
		return strings.Join(who, "; ")
	}
}

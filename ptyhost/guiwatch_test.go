//go:build unix

package ptyhost

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestGUIWatchSeesTheReaderGo: stdout as a pipe or a socket whose reader
// closes it: Gone says so at once, and Done is closed, its Context ended
// with ErrGUIGone; stdout as a file never goes.
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
			fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
			if err != nil {
				t.Fatal(err)
			}
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
			reader.Close()
			if !g.Gone() || g.Why() != whyReaderClosed {
				t.Errorf("Gone %v (%q) once the reader closed", g.Gone(), g.Why())
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
				t.Fatal("the context did not end within 1s of the reader's close")
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
		r.Close()
		select {
		case <-g.Done():
		case <-time.After(time.Second):
			t.Fatal("Done not closed within 1s of the reader's close")
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
	})
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

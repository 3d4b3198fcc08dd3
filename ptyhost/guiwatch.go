package ptyhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// When the GUI goes away — the process reading yume-cli's stdout closed it
// (Yume crashed or was force-quit), or yume-cli's parent exited — nobody
// sees what the program does and nobody can answer it. A GUIWatch notices
// either as it happens, so the session ends at once instead of running on,
// orphaned, with calls approved in auto mode.

// ErrGUIGone is the cause (context.Cause) of a context that a GUIWatch
// ended.
var ErrGUIGone = errors.New("the GUI went away")

// Bounds of a session that ends because its GUI went away: the whole end
// (quit keys, then the process group) fits in a second.
const (
	// GoneQuitWait is how long the program has to exit after its quit keys.
	GoneQuitWait = 300 * time.Millisecond
	// GoneGrace is how long its process group has between SIGTERM and SIGKILL.
	GoneGrace = 300 * time.Millisecond
)

// parentPoll is how often the parent is looked at where the OS gives no
// event for its exit.
const parentPoll = 200 * time.Millisecond

// GUIWatch watches stdout's reader and yume-cli's parent.
type GUIWatch struct {
	ppid int // the parent at start; 1 or less: not watched (started detached)
	once sync.Once
	done chan struct{}
	why  string // set before done is closed

	// mu guards fd: look polls it while the watch may be releasing it.
	mu sync.Mutex
	// fd is the watch's own duplicate of out's descriptor (-1: not
	// watched, or released once the watch ended). Never out's own
	// number: its owner may close it while a poll waits on it, and the
	// number's next file (a socket another part of the program opened)
	// would then be polled and held open after its own close.
	fd int
	// wakeR turns readable when wakeW is closed (Lost): the watch stops
	// waiting and releases fd. Nil where nothing is polled.
	wakeR, wakeW *os.File
}

// WatchGUI starts watching out (stdout) for its reader going away, and the
// parent of this process for its exit. Call it once, early in main.
func WatchGUI(out *os.File) *GUIWatch {
	g := &GUIWatch{fd: -1, ppid: os.Getppid(), done: make(chan struct{})}
	if out != nil && !regular(out) {
		g.own(out)
	}
	go g.watch()
	return g
}

// regular reports whether f is a regular file: it has no reader to lose,
// and a poll of it for no events would wait forever, holding a reference
// to whatever file its number names the next time it is polled (a -race
// -count=50 run saw a socket closed by its reader stay open for a
// second, held so by a file's watch whose file had been closed).
func regular(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode().IsRegular()
}

// Done is closed once the GUI has gone (nil for a nil watch: never).
func (g *GUIWatch) Done() <-chan struct{} {
	if g == nil {
		return nil
	}
	return g.done
}

// Why says how the GUI went away ("" while it is there).
func (g *GUIWatch) Why() string {
	select {
	case <-g.Done():
		return g.why
	default:
		return ""
	}
}

// Gone reports whether the GUI has gone, looking now rather than waiting
// for the watching goroutine: what is about to approve a call asks it.
func (g *GUIWatch) Gone() bool {
	if g == nil {
		return false
	}
	select {
	case <-g.done:
		return true
	default:
	}
	if why := g.look(); why != "" {
		g.Lost(why)
		return true
	}
	return false
}

// Lost records that the GUI went away for why (a write to stdout failed).
// Only the first call counts.
func (g *GUIWatch) Lost(why string) {
	if g == nil {
		return
	}
	g.once.Do(func() {
		g.why = why
		close(g.done)
		if g.wakeW != nil {
			g.wakeW.Close() // the watch stops waiting and lets its descriptor go
		}
	})
}

// parentGone reports yume-cli's parent gone: re-parented since the start.
func (g *GUIWatch) parentGone() bool { return g.ppid > 1 && os.Getppid() != g.ppid }

// The reasons, once.
const (
	whyReaderClosed = "stdout's reader closed it"
	whyParentExited = "yume-cli's parent exited"
)

// Context returns a context that ends, with a cause that wraps ErrGUIGone,
// when the GUI goes away. A nil watch returns parent's own.
func (g *GUIWatch) Context(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	if g != nil {
		go func() {
			select {
			case <-g.done:
				cancel(fmt.Errorf("%w: %s", ErrGUIGone, g.why))
			case <-ctx.Done():
			}
		}()
	}
	return ctx, func() { cancel(nil) }
}

// GUIGone reports whether ctx ended because the GUI went away.
func GUIGone(ctx context.Context) bool { return errors.Is(context.Cause(ctx), ErrGUIGone) }

// pollParent looks at the parent every parentPoll, where no event comes.
func (g *GUIWatch) pollParent() {
	if g.ppid <= 1 {
		return
	}
	t := time.NewTicker(parentPoll)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-g.done:
			return
		}
		if g.parentGone() {
			g.Lost(whyParentExited)
			return
		}
	}
}

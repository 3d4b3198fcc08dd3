//go:build unix

package driver_test

import (
	"sync"
	"time"

	"github.com/yume-cli/yume-cli/ptyhost"
)

// lateKeys hands what is written on to its terminal late, everything
// written by then in one write, as a pty's kernel worker does on a loaded
// machine: Write returns at once, and the program sees the keys later.
type lateKeys struct {
	ptyhost.Terminal
	late time.Duration
	mu   sync.Mutex
	buf  []byte
	wake chan struct{}
	done chan struct{}
	over chan struct{}
	once sync.Once
}

func newLateKeys(t ptyhost.Terminal, late time.Duration) *lateKeys {
	l := &lateKeys{Terminal: t, late: late, wake: make(chan struct{}, 1), done: make(chan struct{}), over: make(chan struct{})}
	go l.run()
	return l
}

func (l *lateKeys) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.buf = append(l.buf, p...)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (l *lateKeys) run() {
	defer close(l.over)
	for {
		select {
		case <-l.done:
			return
		case <-l.wake:
		}
		select {
		case <-l.done:
			return
		case <-time.After(l.late): // the latency modelled, not a wait for anything
		}
		l.mu.Lock()
		b := l.buf
		l.buf = nil
		l.mu.Unlock()
		if len(b) > 0 {
			_, _ = l.Terminal.Write(b)
		}
	}
}

func (l *lateKeys) Close() error {
	l.stop()
	return l.Terminal.Close()
}

// stop ends the hand-on and waits for it.
func (l *lateKeys) stop() {
	l.once.Do(func() { close(l.done) })
	<-l.over
}

// Unwrap lets the driver look through to the process.
func (l *lateKeys) Unwrap() ptyhost.Terminal { return l.Terminal }

package ptyhost

import (
	"errors"
	"os"
	"sync"
)

// KeyWriter types into a live terminal from a goroutine of its own, in
// order, so the driver never blocks on a program that does not read its
// terminal (busy, or flooding queries that yume-cli answers): an interrupt
// frame or a signal is still handled, and Close still stops the program.
// What waits is bounded; past the bound a Write fails and its bytes are
// not typed.
type KeyWriter struct {
	Terminal
	mu      sync.Mutex
	wake    *sync.Cond
	queue   [][]byte
	pending int
	stopped bool
	err     error // the terminal's first write error, returned from then on
	done    chan struct{}
}

// maxPendingKeys bounds the bytes waiting for a program that does not read.
const maxPendingKeys = 1 << 20

// errNotReading is a Write refused because the program has not read what
// was typed before.
var errNotReading = errors.New("the program is not reading its terminal: over 1 MiB of keys and replies wait")

func NewKeyWriter(t Terminal) *KeyWriter {
	k := &KeyWriter{Terminal: t, done: make(chan struct{})}
	k.wake = sync.NewCond(&k.mu)
	go k.run()
	return k
}

func (k *KeyWriter) Write(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	switch {
	case k.err != nil:
		return 0, k.err
	case k.stopped:
		return 0, os.ErrClosed
	case k.pending+len(p) > maxPendingKeys:
		return 0, errNotReading
	}
	k.queue = append(k.queue, append([]byte(nil), p...))
	k.pending += len(p)
	k.wake.Signal()
	return len(p), nil
}

func (k *KeyWriter) run() {
	defer close(k.done)
	for {
		k.mu.Lock()
		for len(k.queue) == 0 && !k.stopped {
			k.wake.Wait()
		}
		if len(k.queue) == 0 {
			k.mu.Unlock()
			return
		}
		b := k.queue[0]
		k.queue = k.queue[1:]
		k.mu.Unlock()
		_, err := k.Terminal.Write(b) // blocks while the program does not read
		k.mu.Lock()
		k.pending -= len(b)
		if err != nil && k.err == nil {
			k.err = err
			k.queue, k.pending = nil, 0
		}
		k.mu.Unlock()
	}
}

// Stop lets the writer end once what waits is typed (or the terminal is
// closed under it); typing after stop fails.
func (k *KeyWriter) Stop() {
	k.mu.Lock()
	k.stopped = true
	k.wake.Broadcast()
	k.mu.Unlock()
}

// Close stops the program, which also ends a write blocked on it.
func (k *KeyWriter) Close() error {
	k.Stop()
	return k.Terminal.Close()
}

// Pending is how many bytes wait to be written to the terminal.
func (k *KeyWriter) Pending() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.pending
}

// Unwrap is the terminal the keys go to.
func (k *KeyWriter) Unwrap() Terminal { return k.Terminal }

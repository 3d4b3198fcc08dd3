package background

import (
	"io"
	"sync"
	"time"
)

// Detached is a writer that never keeps its caller waiting for a reader.
// Yume starts its background agents with stdout and stderr piped and
// reads neither while they run: a pipe holds 64 KiB, and an agent that
// wrote more would wait for good. What is written goes to a queue that a
// goroutine copies to the pipe as fast as it is read, in order; past
// Limit bytes waiting, further writes are dropped (and counted), never
// waited for. Once the underlying writer fails (its reader closed it),
// every Write returns that error, as the pipe itself would.
type Detached struct {
	mu      sync.Mutex
	wake    *sync.Cond
	w       io.Writer
	queue   []byte
	limit   int
	dropped int
	err     error
	busy    bool      // a chunk is being written
	moved   time.Time // when the chunk being written started, or the last one ended
	closed  bool
}

// DetachLimit is how much a Detached holds for a reader that does not
// read: far more than a run writes while anyone reads it.
const DetachLimit = 64 << 20

// chunk is the most one write to the pipe takes, so that a reader that
// reads is seen to move.
const chunk = 16 << 10

// Detach starts copying what is written to w in the background, holding
// at most limit bytes (0: DetachLimit).
func Detach(w io.Writer, limit int) *Detached {
	if limit <= 0 {
		limit = DetachLimit
	}
	d := &Detached{w: w, limit: limit, moved: time.Now()}
	d.wake = sync.NewCond(&d.mu)
	go d.run()
	return d
}

// Write queues p whole, or drops it whole when the queue is full.
func (d *Detached) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return 0, d.err
	}
	if len(d.queue)+len(p) > d.limit {
		d.dropped += len(p)
		return len(p), nil
	}
	d.queue = append(d.queue, p...)
	d.wake.Signal()
	return len(p), nil
}

func (d *Detached) run() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for {
		for len(d.queue) == 0 && !d.closed {
			d.wake.Wait()
		}
		if len(d.queue) == 0 {
			return
		}
		part := d.queue[:min(len(d.queue), chunk)]
		d.busy, d.moved = true, time.Now()
		d.mu.Unlock()
		n, err := d.w.Write(part)
		d.mu.Lock()
		d.busy = false
		d.moved = time.Now()
		d.queue = d.queue[n:]
		if len(d.queue) == 0 {
			d.queue = nil // let a big backlog's array go
		}
		if err == nil && n < len(part) {
			err = io.ErrShortWrite
		}
		if err != nil {
			d.err, d.queue = err, nil
			d.wake.Broadcast()
			return
		}
		d.wake.Broadcast()
	}
}

// Close waits until everything queued is written, or until the reader has
// taken nothing for idle (nobody reads: what is left is dropped). It
// reports how many bytes never reached the reader.
func (d *Detached) Close(idle time.Duration) (lost int) {
	d.mu.Lock()
	d.closed = true
	d.wake.Broadcast()
	d.mu.Unlock()
	for {
		d.mu.Lock()
		left, stuck, failed := len(d.queue), d.busy && time.Since(d.moved) > idle, d.err != nil
		if left == 0 && !d.busy || stuck || failed {
			lost = d.dropped + left
			d.mu.Unlock()
			return lost
		}
		d.mu.Unlock()
		time.Sleep(10 * time.Millisecond) // Polling: a write blocked in the pipe tells nobody when it moves.
	}
}

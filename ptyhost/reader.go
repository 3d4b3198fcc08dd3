package ptyhost

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Reader drains a terminal in a goroutine of its own into a ring of bytes,
// so that reading and parsing overlap: while the consumer parses what it
// took, the reader keeps the terminal empty and the program is never
// blocked on a full terminal buffer. The consumer takes everything ready
// in one hand-off (Take), never one hand-off per chunk read. A full ring
// stops the reader, and so the program: memory stays bounded.
//
// yume-cli runs one thread of Go code (GOMAXPROCS=1), so the consumer
// parses only when the reader lets it. A PTY read takes at most the
// kernel's 4 KiB terminal buffer, and the kernel refills that buffer after
// each read, on its own worker: the reader hands over each Batch right
// after a read (yields), and the parse runs while the kernel refills. A
// reader that read on until the ring was full made the parse of 256 KiB
// wait for nobody to read: the program stalled on a full terminal for all
// of it (a 100 MiB flood took 1.12× a raw drain's time; 1.05× with batches).
type Reader struct {
	t       Terminal
	arrived func(at time.Duration)  // output landed in an empty ring (called without mu)
	clock   func() time.Duration    // what times chunks (nil: the terminal's own times)
	filling func()                  // a batch is held: the consumer should take it now
	asks    func(chunk []byte) bool // the chunk ends with a question to the terminal (SetAsking)
	asked   func()                  // …so the consumer should parse it now
	parker  parker                  // tells when its reads wait for output (nil: cannot)

	mu      sync.Mutex
	space   *sync.Cond // signalled when Take frees space, or on Stop
	ring    []byte
	head, n int           // the oldest byte not taken, and how many are held
	firstAt time.Duration // when the oldest byte held was read
	lastAt  time.Duration // when the newest byte held was read
	holding bool          // a chunk read waits for space in the ring
	// inHand is set from a chunk's read until it is in the ring: output
	// read that Take cannot hand over yet.
	inHand atomic.Bool
	// read counts every byte a read returned (as it returns, before the
	// chunk is in the ring), taken every byte handed over: equal, nothing
	// read is left to parse (Settled).
	read, taken atomic.Int64
	err         error // how the output ended; reported once the ring is drained
	stopped     bool
	ended       chan struct{} // closed once err is set
}

// DefaultRing is the ring's size: a few milliseconds of a program printing
// as fast as a terminal takes it (60–70 MB/s here) while the consumer is
// busy elsewhere or waits to take a larger batch.
const DefaultRing = 256 << 10

// Batch is how much output the reader lets pile up before it yields to the
// consumer to parse it: big enough that a flood's parse mostly jumps (a
// screenful of lines is parsed in full per batch) and the hand-off's cost
// is spread, small enough that the parse of one takes less time than the
// kernel's refill of the terminal after a read.
const Batch = 32 << 10

// NewReader reads t into a ring of size bytes once Start is called.
// arrived is told of output that lands in an empty ring, filling of a ring
// that came to hold a batch (the consumer may want to wake): neither may
// block, nor call the Reader.
func NewReader(t Terminal, size int, arrived func(at time.Duration), filling func()) *Reader {
	r := &Reader{t: t, arrived: arrived, filling: filling, parker: parkerOf(t), ring: make([]byte, size), ended: make(chan struct{})}
	r.space = sync.NewCond(&r.mu)
	return r
}

// SetClock makes the reader time its chunks by now (before Start): the
// consumer's clock. A terminal times its chunks from its own start, and a
// consumer that compares them with its deadlines must share their base.
func (r *Reader) SetClock(now func() time.Duration) { r.clock = now }

// SetAsking, called before Start, makes the reader call asked for each
// chunk that asks reports ends with a question to the terminal (a cursor
// position, a colour). The program waits for the answer, which the
// consumer's parse gives, so the consumer should parse now, not when it
// otherwise would (measured: one answer in ten came 1.5–2 ms late, at the
// consumer's next deadline, and a TUI's start waits for each). Neither
// may block, nor call the Reader.
func (r *Reader) SetAsking(asks func(chunk []byte) bool, asked func()) {
	r.asks, r.asked = asks, asked
}

// Start begins reading in a goroutine of its own.
func (r *Reader) Start() { go r.run() }

func (r *Reader) run() {
	if p := directOf(r.t); p != nil {
		r.runDirect(p)
		return
	}
	for {
		data, at, err := r.t.ReadChunk()
		if r.clock != nil {
			at = r.clock()
		}
		if len(data) > 0 {
			r.inHand.Store(true)
			r.read.Add(int64(len(data)))
			batched, ok := r.put(data, at, r.asking(data))
			if !ok {
				return
			}
			r.inHand.Store(false)
			r.yieldIf(batched)
		}
		if err != nil {
			r.end(err)
			return
		}
	}
}

// directOf is the live process under t when nothing between them looks at
// its output (only a key writer, which passes it through): then the
// reader reads straight into the ring, one copy of every byte fewer than
// through ReadChunk's buffer. nil for anything else (a recording tee, a
// replay, a start that holds its first output back).
func directOf(t Terminal) *Process {
	for {
		switch v := t.(type) {
		case *Process:
			return v
		case *KeyWriter:
			t = v.Terminal
		default:
			return nil
		}
	}
}

// runDirect is run for a live process read straight into the ring: each
// read fills free space at the ring's tail, which Take never touches, and
// is then handed over as put hands over a copied chunk.
func (r *Reader) runDirect(p *Process) {
	for {
		r.mu.Lock()
		r.holding = true
		for !r.stopped && r.n == len(r.ring) {
			r.space.Wait()
		}
		if r.stopped {
			r.mu.Unlock()
			return
		}
		r.holding = false
		tail := (r.head + r.n) % len(r.ring)
		end := len(r.ring) // the free space after tail, up to the ring's end or its head
		if tail < r.head {
			end = r.head
		}
		r.mu.Unlock()
		n, err := p.Read(r.ring[tail:end])
		if n > 0 {
			at := time.Since(p.Started())
			if r.clock != nil {
				at = r.clock()
			}
			r.inHand.Store(true)
			r.read.Add(int64(n))
			// Looked at before it is handed over: the ring's bytes are
			// then the consumer's to read.
			batched, ok := r.publish(n, at, r.asking(r.ring[tail:tail+n]))
			if !ok {
				return
			}
			r.inHand.Store(false)
			r.yieldIf(batched)
		}
		if err != nil {
			r.end(err)
			return
		}
	}
}

// parker is a terminal that tells when its reads wait for output
// (Process.Parked).
type parker interface{ Parked() uint64 }

// parkerOf is t's parker where every read of t is one of it: only a key
// writer between (a wrapper may read ahead or hold output back).
func parkerOf(t Terminal) parker {
	for {
		switch v := t.(type) {
		case parker:
			return v
		case *KeyWriter:
			t = v.Terminal
		default:
			return nil
		}
	}
}

// yieldIf lets the consumer run once a batch is held (it was told by
// filling), as the kernel refills the terminal after the read just done.
func (r *Reader) yieldIf(batched bool) {
	if batched && r.filling != nil {
		runtime.Gosched()
	}
}

// asking reports that chunk ends with a question to the terminal.
func (r *Reader) asking(chunk []byte) bool { return r.asks != nil && r.asks(chunk) }

// publish hands over n bytes read into the ring's tail; batched reports a
// batch held; ok is false once stopped. asking: they end with a question
// to the terminal (SetAsking).
func (r *Reader) publish(n int, at time.Duration, asking bool) (batched, ok bool) {
	r.mu.Lock()
	if r.stopped {
		r.mu.Unlock()
		return false, false
	}
	wasEmpty := r.n == 0
	if wasEmpty {
		r.firstAt = at
	}
	batch := r.batch()
	crossed := r.n < batch && r.n+n >= batch
	r.n += n
	r.lastAt, batched = at, r.n >= batch
	r.mu.Unlock()
	r.tell(wasEmpty, crossed, asking, at)
	return batched, true
}

// tell tells the consumer of a chunk handed over: output in an empty
// ring, a batch held, or a question to answer now.
func (r *Reader) tell(wasEmpty, crossed, asking bool, at time.Duration) {
	switch {
	case asking && r.asked != nil:
		r.asked()
	case wasEmpty && r.arrived != nil:
		r.arrived(at)
	case crossed && r.filling != nil:
		r.filling()
	}
}

// end records how the output ended.
func (r *Reader) end(err error) {
	r.mu.Lock()
	r.err = err
	r.mu.Unlock()
	close(r.ended)
}

// put copies a chunk into the ring, waiting for space; batched reports a
// batch held; ok is false once stopped. asking is publish's.
func (r *Reader) put(data []byte, at time.Duration, asking bool) (batched, ok bool) {
	r.mu.Lock()
	r.holding = true
	for !r.stopped && len(r.ring)-r.n < len(data) {
		if r.n == 0 { // a chunk larger than the ring: grow it once
			r.ring = make([]byte, len(data))
			r.head = 0
			break
		}
		r.space.Wait()
	}
	if r.stopped {
		r.mu.Unlock()
		return false, false
	}
	tail := (r.head + r.n) % len(r.ring)
	c := copy(r.ring[tail:], data)
	copy(r.ring, data[c:])
	wasEmpty := r.n == 0
	if wasEmpty {
		r.firstAt = at
	}
	batch := r.batch()
	crossed := r.n < batch && r.n+len(data) >= batch
	r.n += len(data)
	r.lastAt, r.holding, batched = at, false, r.n >= batch
	r.mu.Unlock()
	r.tell(wasEmpty, crossed, asking, at)
	return batched, true
}

// Take hands everything the ring holds to parse (in one or two slices,
// oldest first), then frees it. It returns how many bytes that was and
// when the newest of them was read. The slices are valid only during
// parse; the reader fills the rest of the ring meanwhile.
func (r *Reader) Take(parse func(p []byte)) (n int, at time.Duration) {
	return r.TakeSome(func(p []byte) int {
		parse(p)
		return len(p)
	})
}

// TakeSome is Take for a consumer that may leave the end of what it is
// handed for later: consume returns how many bytes of p, from its start,
// it took; the second slice is handed over only if the first was taken
// whole. What is left stays in the ring, oldest first, for the next take.
func (r *Reader) TakeSome(consume func(p []byte) int) (n int, at time.Duration) {
	r.mu.Lock()
	head, held, at := r.head, r.n, r.lastAt
	r.mu.Unlock()
	if held == 0 {
		return 0, 0
	}
	first := min(held, len(r.ring)-head)
	n = consume(r.ring[head : head+first])
	if n == first && first < held {
		n += consume(r.ring[:held-first])
	}
	r.mu.Lock()
	r.head = (r.head + n) % len(r.ring)
	r.n -= n
	r.taken.Add(int64(n))
	if r.n > 0 && n < held {
		r.firstAt = at // handed over once: the consumer's pause deadlines count from at
	}
	r.space.Signal()
	r.mu.Unlock()
	return n, at
}

// Held reports whether output was read that Take has not handed over yet.
func (r *Reader) Held() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n > 0 || r.inHand.Load()
}

// Settled reports, from one look, how many bytes reads returned and how
// many were handed over: every byte read so far was taken when they are
// equal.
func (r *Reader) Settled() (read, taken int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.read.Load(), r.taken.Load()
}

// Idle is a mark taken while the reader waits for output with everything
// it read handed over (ok false: it is not so, or the terminal cannot
// tell). Equal marks before and after a look at the program mean nothing
// was read between them: all it printed before the look was parsed.
func (r *Reader) Idle() (mark uint64, ok bool) {
	if r.parker == nil {
		return 0, false
	}
	mark = r.parker.Parked()
	r.mu.Lock()
	defer r.mu.Unlock()
	return mark, mark%2 == 1 && r.n == 0 && r.read.Load() == r.taken.Load()
}

// Newest reports how many bytes reached the ring so far and when the
// newest of them was read, from one look (a chunk in hand counts once it
// is in the ring, with its time).
func (r *Reader) Newest() (put int64, at time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.taken.Load() + int64(r.n), r.lastAt
}

// Buffered is how many bytes the ring holds.
func (r *Reader) Buffered() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// Since reports whether the ring holds output, and when the oldest of it
// was read.
func (r *Reader) Since() (held bool, at time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n > 0, r.firstAt
}

// Filling reports a batch held (or a ring the reader waits on): the
// consumer should take it now rather than at its own pace.
func (r *Reader) Filling() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.holding || r.n >= r.batch()
}

// batch is Batch, or half a ring smaller than two of them.
func (r *Reader) batch() int { return min(Batch, len(r.ring)/2) }

// Ended is closed once the terminal's output has ended; Err says how
// (io.EOF, or why), once everything before it was taken.
func (r *Reader) Ended() <-chan struct{} { return r.ended }

// Err is how the output ended (nil while it goes on).
func (r *Reader) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Stop ends the reader's use of the ring: it reads at most one more chunk
// (closing the terminal ends that read) and hands nothing more over.
func (r *Reader) Stop() {
	r.mu.Lock()
	r.stopped = true
	r.space.Broadcast()
	r.mu.Unlock()
}

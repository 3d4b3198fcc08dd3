package run

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// guessedStart is the terminal of a program started with the flags guessed
// for its release (a first run after an install or an update: nothing
// cached of its --help yet). Its --help is read in the background once the
// program has started (the first key of the answer to its first question,
// or the end of the turn), so that the probe does not take the CPU the
// program starts with; or at once where the answer is needed.
// A program that does not take those flags says so and exits before it
// draws anything (an unknown option, an unknown choice). It is then started
// again at once with the flags its own --help gives, and the driver never
// sees the first attempt: the turn goes on as if it had started right.
// Until the program draws (any escape sequence but a colour) or its --help
// confirms the guess, the plain text it prints is held back.
type guessedStart struct {
	first *ptyhost.Process
	cur   atomic.Pointer[ptyhost.Process]
	probe *providers.PendingProbe
	argv  []string
	// argvFor is the command line the program's own --help gives (ok
	// false: none can be made from it).
	argvFor func(help string) (argv []string, ok bool)
	start   func(argv []string, cols, rows int) (*ptyhost.Process, error)
	// restarted hears of a second start (for --verbose).
	restarted func(argv []string)

	mu         sync.Mutex
	cols, rows int // the size last set, for a second start

	// ReadChunk's own (it is called from one goroutine).
	through bool // decided: the first program runs, or the second
	held    []byte
	heldAt  time.Duration
	inHand  bool       // a chunk of the helper's is out: ack it on the next read
	pending *readChunk // the end of output, after the held text
	second  *ptyhost.Process
	offset  time.Duration // the second program's start on the first's clock

	chunks  chan readChunk // the first program's reads (readFirst)
	ack     chan struct{}  // the last chunk is done with: read the next
	quit    chan struct{}  // closed by Close
	quitter sync.Once

	asked atomic.Bool // a question was asked (Mark)

	decideOnce sync.Once
	decided    chan struct{} // closed once it is known which program runs
	last       atomic.Pointer[ptyhost.Process]
	done       chan struct{} // closed once the program that runs last exited
}

type readChunk struct {
	data []byte
	at   time.Duration
	err  error
}

func newGuessedStart(first *ptyhost.Process, argv []string, cols, rows int, probe *providers.PendingProbe) *guessedStart {
	g := &guessedStart{first: first, probe: probe, argv: argv, cols: cols, rows: rows,
		chunks: make(chan readChunk), ack: make(chan struct{}, 1), quit: make(chan struct{}),
		decided: make(chan struct{}), done: make(chan struct{})}
	g.cur.Store(first)
	go g.readFirst()
	go func() {
		<-first.Done()
		<-g.decided
		if s := g.last.Load(); s != nil {
			<-s.Done()
		}
		close(g.done)
	}()
	return g
}

// readFirst reads the first program for ReadChunk, a chunk at a time: the
// next read waits until ReadChunk is done with the last (the process reads
// into one buffer).
func (g *guessedStart) readFirst() {
	for {
		data, at, err := g.first.ReadChunk()
		select {
		case g.chunks <- readChunk{data, at, err}:
		case <-g.quit:
			return
		}
		if err != nil {
			return
		}
		select {
		case <-g.ack:
		case <-g.quit:
			return
		}
	}
}

// decide says which program runs from now on (second nil: the first);
// false when that was decided already (Close).
func (g *guessedStart) decide(second *ptyhost.Process) (decided bool) {
	g.decideOnce.Do(func() {
		g.last.Store(second)
		close(g.decided)
		decided = true
	})
	return decided
}

// ReadChunk is the running program's next output.
func (g *guessedStart) ReadChunk() ([]byte, time.Duration, error) {
	if g.inHand {
		g.inHand = false
		g.ack <- struct{}{}
	}
	if c := g.pending; c != nil {
		g.pending = nil
		return c.data, c.at, c.err
	}
	if g.second != nil {
		data, at, err := g.second.ReadChunk()
		return data, at + g.offset, err
	}
	var probed <-chan struct{}
	if !g.through {
		probed = g.probe.Done()
	}
	for {
		select {
		case c := <-g.chunks:
			switch {
			case c.err != nil && !g.through:
				return g.firstEnded(c)
			case c.err != nil:
				return c.data, c.at, c.err
			case g.through || draws(c.data):
				g.inHand = true
				return g.release(c.data), c.at, nil // it took its flags
			}
			g.held, g.heldAt = append(g.held, c.data...), c.at
			g.probe.Start() // whether to hand it over is the probe's to say
			g.ack <- struct{}{}
		case <-probed:
			probed = nil
			if g.confirmed() {
				if out := g.release(nil); len(out) > 0 {
					return out, g.heldAt, nil
				}
			}
		}
	}
}

// release ends the hold: the first program runs; what it printed so far
// comes before data.
func (g *guessedStart) release(data []byte) []byte {
	g.through = true
	g.decide(nil)
	if len(g.held) == 0 {
		return data
	}
	out := append(g.held, data...)
	g.held = nil
	return out
}

// confirmed reports that the program's --help gives the flags it was
// started with, or cannot say (there is nothing better to start it with).
func (g *guessedStart) confirmed() bool {
	p, err := g.probe.Wait(context.Background())
	if err != nil {
		return true
	}
	argv, ok := g.argvFor(p.Help)
	return !ok || slices.Equal(argv, g.argv)
}

// firstEnded is the end of the first program's output before it drew
// anything: it is started again with its own flags where they differ from
// the guess; else its output and end are handed over as they were.
func (g *guessedStart) firstEnded(c readChunk) ([]byte, time.Duration, error) {
	if p, err := g.probe.Wait(context.Background()); err == nil {
		if argv, ok := g.argvFor(p.Help); ok && !slices.Equal(argv, g.argv) {
			g.mu.Lock()
			cols, rows := g.cols, g.rows
			g.mu.Unlock()
			if second, err := g.start(argv, cols, rows); err == nil {
				if !g.decide(second) { // closed meanwhile
					_ = second.Close()
					return nil, c.at, c.err
				}
				_ = g.first.Close() // it exited: its terminal is released
				g.second, g.offset, g.through, g.held = second, second.Started().Sub(g.first.Started()), true, nil
				g.cur.Store(second)
				if g.restarted != nil {
					g.restarted(argv)
				}
				return g.ReadChunk()
			}
		}
	}
	held := g.held
	g.release(nil)
	if len(held) > 0 {
		g.pending = &c
		return held, g.heldAt, nil
	}
	return c.data, c.at, c.err
}

// draws reports output that draws: an escape sequence other than what a
// program prints as it exits (colours, the cursor shown again, modes set
// back). A program that rejects its flags prints plain or coloured text,
// and a Node program shows the cursor on its way out; a TUI starting hides
// the cursor, sets modes, asks the terminal, moves or erases. A sequence
// cut off at the end counts as drawing.
func draws(p []byte) bool {
	for {
		i := bytes.IndexByte(p, 0x1b)
		if i < 0 {
			return false
		}
		p = p[i+1:]
		if len(p) == 0 || p[0] != '[' {
			return true
		}
		j := 1
		for j < len(p) && p[j] >= 0x20 && p[j] <= 0x3f {
			j++
		}
		if j == len(p) || !exiting(p[1:j], p[j]) {
			return true
		}
		p = p[j+1:]
	}
}

// exiting reports a control sequence (its parameters and final byte) that
// a program prints as it exits: SGR, the cursor shown (CSI ? 25 h), a
// private mode reset other than hiding the cursor (CSI ? … l), the
// keyboard protocol popped (CSI < u).
func exiting(params []byte, final byte) bool {
	switch {
	case final == 'm':
		return true
	case final == 'u' && len(params) > 0 && params[0] == '<':
		return true
	case len(params) == 0 || params[0] != '?':
		return false
	case final == 'h':
		return string(params) == "?25"
	case final == 'l':
		for _, m := range bytes.Split(params[1:], []byte(";")) {
			if string(m) == "25" {
				return false
			}
		}
		return true
	}
	return false
}

// Mark hears the driver ask a question (its "question N: …" marker; the
// others, a model error's, are not questions): the program has started,
// and its --help can be read once the answer's first key goes (Write).
// Not before: the driver reads the dialog's next frame again before it
// types, and a Node CLI's --help, even at the lowest priority, slows that
// frame.
func (g *guessedStart) Mark(label string) {
	if strings.HasPrefix(label, "question ") {
		g.asked.Store(true)
	}
}

// Write types to the running program; after a question, the probe starts
// with the answer's first key.
func (g *guessedStart) Write(p []byte) (int, error) {
	if g.asked.Load() {
		g.probe.Start()
	}
	return g.cur.Load().Write(p)
}

// Resize sizes the running program's terminal (and a second start's).
func (g *guessedStart) Resize(cols, rows int) error {
	g.mu.Lock()
	g.cols, g.rows = cols, rows
	g.mu.Unlock()
	return g.cur.Load().Resize(cols, rows)
}

// Wait is how the program that ran last ended.
func (g *guessedStart) Wait() (ptyhost.ExitStatus, error) {
	<-g.decided
	if s := g.last.Load(); s != nil {
		return s.Wait()
	}
	return g.first.Wait()
}

// Done is closed once the program that runs last has exited.
func (g *guessedStart) Done() <-chan struct{} { return g.done }

// Started is when the first program started: output times count from it.
func (g *guessedStart) Started() time.Time { return g.first.Started() }

// Unwrap is the running program's terminal (its input wait, unread
// output, process group).
func (g *guessedStart) Unwrap() ptyhost.Terminal { return g.cur.Load() }

// Close stops the programs and the reading.
func (g *guessedStart) Close() error {
	g.decide(nil) // no second start after this
	g.quitter.Do(func() { close(g.quit) })
	err := g.first.Close()
	if s := g.last.Load(); s != nil {
		err = s.Close()
	}
	return err
}

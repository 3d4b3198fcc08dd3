package structured

import (
	"context"
	"sync/atomic"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// providerProcess is the lifecycle the JSON and ACP modes share: the
// provider started with pipes in its own process group (proc), and the
// turn stopped at most once, when ctx ends or the GUI sends an interrupt.
// How a turn stops is the protocol's: JSON interrupts the process, ACP
// asks the agent to cancel. Each run waits for the process on every path,
// so none outlives the turn.
type providerProcess struct {
	*proc
	interrupted atomic.Bool   // the turn was stopped: it ends as interrupted
	stopTurn    func()        // the protocol's way, set by watch
	done        chan struct{} // closed by release: the run is over
}

// startProvider starts opts' provider at path with args. withStdin makes
// a stdin pipe; the provider's stderr goes to opts.Stderr.
func startProvider(opts Options, path string, args []string, withStdin bool) (*providerProcess, error) {
	ptyhost.WatchdogUp() // no program runs unwatched
	pr, err := startProc(opts.Provider.Name, path, args, opts.Cwd, opts.Env, withStdin, opts.Stderr)
	if err != nil {
		return nil, err
	}
	opts.Dangers.Ready() // while the provider starts, not at its first request
	return &providerProcess{proc: pr, done: make(chan struct{})}, nil
}

// watch makes stopTurn how the turn stops, and stops it when ctx ends
// before release. Call it once, before stop can be called.
func (p *providerProcess) watch(ctx context.Context, stopTurn func()) {
	p.stopTurn = stopTurn
	go func() {
		select {
		case <-ctx.Done():
			p.stop()
			if ptyhost.GUIGone(ctx) {
				// Nobody reads the turn any more: no time for the agent to
				// cancel politely (an agent retrying its model says nothing
				// for minutes). Its process group ends now.
				p.end(ptyhost.GoneGrace)
			}
		case <-p.done:
		}
	}()
}

// stop marks the turn interrupted and stops it; later calls do nothing.
func (p *providerProcess) stop() {
	if p.interrupted.Swap(true) {
		return
	}
	p.stopTurn()
}

// approver decides the turn's permission requests; an interrupt frame
// from the GUI stops the turn.
func (p *providerProcess) approver(w *emit.Writer, opts Options) *approver {
	return newApprover(w, opts.PermissionMode, opts.NoChannel, opts.Dangers, opts.Controls, p.stop, p.done)
}

// release ends the watchers once the run is over: the ctx watch and the
// approver's reading of control frames.
func (p *providerProcess) release() { close(p.done) }

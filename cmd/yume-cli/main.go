// Command yume-cli lets Yume, a desktop GUI that speaks Claude Code's
// stream-json, drive other coding CLIs: interactive ones through a
// pseudo-terminal and a virtual screen, machine-readable ones by translation.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// orphanGrace is how long a daemon a provider left behind gets to exit
// after SIGTERM before SIGKILL.
const orphanGrace = 2 * time.Second

// probeExitWait bounds how long yume-cli waits as it exits for a probe of
// the program still running in the background (providers.ProbeLater).
const probeExitWait = 10 * time.Second

func main() {
	if os.Getenv("GOMAXPROCS") == "" {
		// One thread runs Go code at a time. yume-cli waits on a program
		// far more than it computes, and on a small machine every thread
		// it runs at once takes a core from that program and the kernel's
		// terminal work: measured, one made a 100 MiB flood's whole run 4–8%
		// faster than two on 2 cores (BenchmarkWholeProcess).
		runtime.GOMAXPROCS(1)
	}
	if os.Getenv("GOGC") == "" {
		// The heap's live part is about 1 MiB; by default the collector
		// first runs at 4 MiB, and whether a flood's garbage reaches that
		// decided a peak RSS anywhere from 10.7 to 12.6 MiB. At 50 it runs
		// at half that: 11.5–11.7 MiB in the same runs, for a collection
		// or two of a 1 MiB heap.
		debug.SetGCPercent(50)
	}
	if ptyhost.IsWatchdog() {
		ptyhost.RunWatchdog()
		return
	}
	// Leave no processes behind, not even ones a provider detached on
	// purpose: they are re-parented to us and ended once we are done, and
	// if we are killed, the watchdog ends them.
	_ = ptyhost.AdoptOrphans()  // Best effort: without it they go to init.
	_ = ptyhost.StartWatchdog() // Best effort: without it a SIGKILL of us leaves them.
	// A write to stdout once its reader is gone fails with EPIPE instead of
	// killing yume-cli with SIGPIPE: the session ends as when the GUI goes
	// (its program stopped, the session stored). A handled signal is reset
	// for the programs yume-cli starts; an ignored one would not be.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	ios := watchedIO()
	code := Main(os.Args[1:], ios)
	grace := orphanGrace
	if ios.GUI.Gone() {
		grace = ptyhost.GoneGrace // nobody waits for a polite end
	} else if code == 0 {
		// A first run with a new release started the program on guessed
		// flags and asked it for its own meanwhile: the turn's output is
		// all written; the answers, cached, spare the next run the guess.
		// A failed run exits at once: its end is due now, and the next
		// run asks again.
		providers.WaitProbes(probeExitWait)
	}
	if n := ptyhost.EndOrphans(grace); n > 0 && os.Getenv("YUME_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "yume-cli: ended %d process(es) the program left behind\n", n)
	}
	os.Exit(code)
}

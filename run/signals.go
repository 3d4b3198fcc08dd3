package run

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// signalError is the cause of a session ended by a signal: the stream
// says which, and the exit status is 128 plus its number (130 for
// Ctrl-C), as shells report a program a signal ended.
type signalError struct{ sig os.Signal }

func (e *signalError) Error() string {
	switch e.sig {
	case os.Interrupt:
		return "interrupted: yume-cli received SIGINT (Ctrl-C)"
	case syscall.SIGTERM:
		return "interrupted: yume-cli received SIGTERM"
	case syscall.SIGHUP:
		return "interrupted: yume-cli received SIGHUP (its terminal closed)"
	}
	return fmt.Sprintf("interrupted: yume-cli received %v", e.sig)
}

// exitCode is 128 plus the signal's number.
func (e *signalError) exitCode() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// withSignals ends ctx, with a *signalError as its cause, on the signals
// that end a session; caught reports the first one, if any.
func withSignals(ctx context.Context) (_ context.Context, stop func(), caught func() *signalError) {
	ctx, cancel := context.WithCancelCause(ctx)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	var (
		mu    sync.Mutex
		first *signalError
	)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			mu.Lock()
			first = &signalError{s}
			mu.Unlock()
			cancel(first)
		case <-done:
		}
	}()
	stop = func() {
		signal.Stop(sigs)
		close(done)
		cancel(context.Canceled)
	}
	return ctx, stop, func() *signalError {
		mu.Lock()
		defer mu.Unlock()
		return first
	}
}

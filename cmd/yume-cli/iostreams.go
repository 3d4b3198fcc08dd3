package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are the process's standard streams, injected so tests can run
// commands in memory (the GitHub CLI's pattern).
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// InIsTerminal reports whether In is a person's terminal rather than a
	// pipe: a terminal is not a control channel unless asked for.
	InIsTerminal bool
	// InIsNull reports whether In is /dev/null (an app started from the
	// Dock): nobody can ever answer, known before anything is asked.
	InIsNull bool
}

func defaultIO() *IOStreams {
	return &IOStreams{
		In:           os.Stdin,
		Out:          os.Stdout,
		ErrOut:       os.Stderr,
		InIsTerminal: term.IsTerminal(int(os.Stdin.Fd())),
		InIsNull:     isDevNull(os.Stdin),
	}
}

// isDevNull reports whether f is the null device.
func isDevNull(f *os.File) bool {
	st, err := f.Stat()
	if err != nil {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(st, null)
}

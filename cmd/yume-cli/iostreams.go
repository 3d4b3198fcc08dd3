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
}

func defaultIO() *IOStreams {
	return &IOStreams{
		In:           os.Stdin,
		Out:          os.Stdout,
		ErrOut:       os.Stderr,
		InIsTerminal: term.IsTerminal(int(os.Stdin.Fd())),
	}
}

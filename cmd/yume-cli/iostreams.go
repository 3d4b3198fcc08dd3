package main

import (
	"os"

	"github.com/yume-cli/yume-cli/ptyhost"
	"github.com/yume-cli/yume-cli/run"
	"golang.org/x/term"
)

func defaultIO() *run.IOStreams {
	return &run.IOStreams{
		In:           os.Stdin,
		Out:          os.Stdout,
		ErrOut:       os.Stderr,
		InIsTerminal: term.IsTerminal(int(os.Stdin.Fd())),
		InIsNull:     isDevNull(os.Stdin),
	}
}

// watchedIO is defaultIO with the GUI watched: stdout's reader and the
// parent.
func watchedIO() *run.IOStreams {
	ios := defaultIO()
	ios.GUI = ptyhost.WatchGUI(os.Stdout)
	return ios
}

// isDevNull reports whether f is the null device. Only a character
// device that is no terminal can be: on Windows, where neither a pipe nor
// NUL has a file id, os.SameFile takes every pipe for NUL.
func isDevNull(f *os.File) bool {
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 || term.IsTerminal(int(f.Fd())) {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(st, null)
}

//go:build windows

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/windows"
)

// notifySignals catches Ctrl-C and Ctrl-Break at yume-cli's console
// (os.Interrupt) and its closing (SIGTERM). The console's keys reach the
// program through raw mode; these come only when stdin is no console.
func notifySignals() chan os.Signal {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	return sigs
}

// isResize is false: Windows sends no signal on a resize.
func isResize(os.Signal) bool { return false }

// resizePoll is how often the console window's size is looked at.
const resizePoll = 250 * time.Millisecond

// showsVT makes the console draw VT sequences (conhost's output is VT),
// and returns what undoes it.
func showsVT(out *os.File) (restore func()) {
	h := windows.Handle(out.Fd())
	var mode uint32
	if windows.GetConsoleMode(h, &mode) != nil {
		return func() {}
	}
	_ = windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING|windows.ENABLE_PROCESSED_OUTPUT) // Best effort: an old console shows the sequences.
	return func() { _ = windows.SetConsoleMode(h, mode) }
}

// signalNumber is the Unix number of the signal a Windows exit reads as
// (ptyhost: STATUS_CONTROL_C_EXIT is SIGINT, a stop SIGKILL), so record's
// exit status is the one a shell would report.
func signalNumber(name string) int {
	switch name {
	case "SIGINT":
		return 2
	case "SIGKILL":
		return 9
	}
	return 1
}

//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// notifySignals catches what ends a terminal session, and SIGWINCH.
func notifySignals() chan os.Signal {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGWINCH, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	return sigs
}

// isResize reports SIGWINCH, the window's new size.
func isResize(s os.Signal) bool { return s == syscall.SIGWINCH }

// resizePoll is zero: SIGWINCH tells of every resize.
const resizePoll time.Duration = 0

// showsVT does nothing: a Unix terminal draws VT as it is.
func showsVT(*os.File) (restore func()) { return func() {} }

// signalNumber maps a signal's name ("SIGTERM") to its number.
func signalNumber(name string) int { return int(unix.SignalNum(name)) }

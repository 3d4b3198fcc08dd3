//go:build !linux

package ptyhost

// MarkerEnv names the environment variable that marks a session's processes.
const MarkerEnv = "YUME_SESSION_MARKER"

var watchdogPID int

// StartWatchdog is Linux-only: elsewhere yume-cli relies on ending its
// children's process groups, which a SIGKILL of yume-cli skips.
func StartWatchdog() error { return nil }

// IsWatchdog is false where there is no watchdog.
func IsWatchdog() bool { return false }

// RunWatchdog does nothing where there is no watchdog.
func RunWatchdog() {}

// WatchdogUp returns at once where there is no watchdog.
func WatchdogUp() {}

// WatchGroup does nothing where there is no watchdog.
func WatchGroup(int) {}

// ForgetGroup does nothing where there is no watchdog.
func ForgetGroup(int) {}

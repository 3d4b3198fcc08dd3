//go:build unix && !linux

package ptyhost

// procFDs keeps /proc files open on Linux (procfds_linux.go); elsewhere
// there is nothing to keep.
type procFDs struct{}

func (c *procFDs) close() {}

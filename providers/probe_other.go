//go:build !linux

package providers

import "os/exec"

// startIdle starts cmd; only Linux lowers the priority of one thread (and
// so of what it forks) without touching the rest of the process.
func startIdle(cmd *exec.Cmd) error { return cmd.Start() }

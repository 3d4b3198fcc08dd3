//go:build !windows

package main

import "os/exec"

// shellCommand runs cmd with sh -c.
func shellCommand(cmd string) *exec.Cmd { return exec.Command("sh", "-c", cmd) }

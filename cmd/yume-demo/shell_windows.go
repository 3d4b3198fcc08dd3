//go:build windows

package main

import (
	"os/exec"
	"syscall"
)

// shellCommand runs cmd with cmd.exe, the shell every Windows has: its
// command line as cmd.exe reads it (/s: what is between the outer quotes,
// as it is), not quoted again for the C runtime.
func shellCommand(cmd string) *exec.Cmd {
	c := exec.Command("cmd.exe")
	c.SysProcAttr = &syscall.SysProcAttr{CmdLine: `cmd.exe /d /s /c "` + cmd + `"`}
	return c
}

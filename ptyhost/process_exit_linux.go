//go:build linux

package ptyhost

import (
	"errors"

	"golang.org/x/sys/unix"
)

// waitExited blocks until the child pid has exited but leaves it unreaped
// (WNOWAIT), so its pid, which is also its process group id, cannot be
// reused until exec.Cmd.Wait reaps it. It reports false if that wait failed,
// in which case the caller reaps without the guarantee.
func waitExited(pid int) bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return err == nil
		}
	}
}

//go:build unix

package structured

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

var (
	interruptSignal = syscall.SIGINT
	endSignal       = syscall.SIGTERM
	killSignal      = syscall.SIGKILL
)

// setGroup puts the child in a new process group led by itself.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup signals the child's whole process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig) // Best effort: ESRCH when the group is gone.
}

// signalName is the signal that ended a process, "" when none did.
func signalName(st *os.ProcessState) string {
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return unix.SignalName(ws.Signal())
	}
	return ""
}

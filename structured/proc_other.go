//go:build !unix

package structured

import (
	"os"
	"os/exec"
)

var (
	interruptSignal = os.Interrupt
	endSignal       = os.Kill // no SIGTERM here
	killSignal      = os.Kill
)

// setGroup does nothing where process groups are not available.
func setGroup(*exec.Cmd) {}

// signalGroup signals the child only.
func signalGroup(cmd *exec.Cmd, sig os.Signal) {
	if cmd.Process == nil {
		return
	}
	_ = cmd.Process.Signal(sig) // Best effort: the process may be gone.
}

// signalName is "" where a process's signal is not told.
func signalName(*os.ProcessState) string { return "" }

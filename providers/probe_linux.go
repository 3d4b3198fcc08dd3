package providers

import (
	"os/exec"
	"runtime"
	"syscall"
)

// startIdle starts cmd at the lowest CPU priority (nice 19). A thread's
// priority is what a process it forks starts with, so cmd is started from
// a thread of its own made idle first; the thread is never handed back to
// the runtime (the goroutine ends locked to it), so nothing else runs at
// that priority.
func startIdle(cmd *exec.Cmd) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()                               // never unlocked: the thread ends with this goroutine
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, 19) // this thread only; best effort
		errc <- cmd.Start()
	}()
	return <-errc
}

//go:build windows

package ptyhost

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows has no process groups: a job object holds the program and
// everything it starts. Created with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
// it ends them all when its last handle closes, which happens when
// yume-cli exits however it exits (even killed): nothing outlives it. Its
// completion port says when its last process has exited, the moment a PTY
// master reads its end of output.

// jobMsgActiveProcessZero is JOB_OBJECT_MSG_ACTIVE_PROCESS_ZERO.
const jobMsgActiveProcessZero = 4

// jobKeyClose wakes the port's reader to end it.
const jobKeyClose = 1

// jobObjectAssociateCompletionPort is JOBOBJECT_ASSOCIATE_COMPLETION_PORT.
type jobObjectAssociateCompletionPort struct {
	CompletionKey  uintptr
	CompletionPort windows.Handle
}

type job struct {
	h       windows.Handle
	port    windows.Handle
	empty   chan struct{} // closed once no process is left in the job
	watched chan struct{} // closed when watch returns
}

// newJob creates a job whose processes die with its last handle, and
// whose completion port a goroutine reads until the job is empty. Call
// close when done with it.
func newJob() (*job, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("ptyhost: create a job object: %w", err)
	}
	j := &job{h: h, empty: make(chan struct{}), watched: make(chan struct{})}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(h) // Best effort.
		return nil, fmt.Errorf("ptyhost: make the job end its processes when yume-cli ends: %w", err)
	}
	j.port, err = windows.CreateIoCompletionPort(windows.InvalidHandle, 0, 0, 1)
	if err != nil {
		_ = windows.CloseHandle(h) // Best effort.
		return nil, fmt.Errorf("ptyhost: create the job's completion port: %w", err)
	}
	assoc := jobObjectAssociateCompletionPort{CompletionKey: 0, CompletionPort: j.port}
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectAssociateCompletionPortInformation,
		uintptr(unsafe.Pointer(&assoc)), uint32(unsafe.Sizeof(assoc))); err != nil {
		_ = windows.CloseHandle(j.port) // Best effort.
		_ = windows.CloseHandle(h)      // Best effort.
		return nil, fmt.Errorf("ptyhost: attach the job's completion port: %w", err)
	}
	go j.watch()
	return j, nil
}

// watch reads the job's messages until the job is empty or close wakes
// it. It holds a thread in a system call while it waits.
func (j *job) watch() {
	defer close(j.watched)
	for {
		var msg uint32
		var key uintptr
		var ov *windows.Overlapped
		err := windows.GetQueuedCompletionStatus(j.port, &msg, &key, &ov, windows.INFINITE)
		switch {
		case err != nil || key == jobKeyClose:
			return
		case msg == jobMsgActiveProcessZero:
			close(j.empty)
			return
		}
	}
}

// assign puts a process (created suspended: it has run nothing yet, so
// started nothing outside the job) in the job.
func (j *job) assign(proc windows.Handle) error {
	if err := windows.AssignProcessToJobObject(j.h, proc); err != nil {
		return fmt.Errorf("ptyhost: put the program in a job object (so that nothing it starts outlives yume-cli): %w", err)
	}
	return nil
}

// terminate ends every process in the job with exit code code.
func (j *job) terminate(code uint32) error {
	if err := windows.TerminateJobObject(j.h, code); err != nil {
		return fmt.Errorf("ptyhost: terminate the program's job: %w", err)
	}
	return nil
}

// close closes the job, which ends what is still in it, then its port
// once watch is over (so that nothing is ever posted to a closed handle,
// whose value may since name another port).
func (j *job) close() error {
	err := windows.CloseHandle(j.h)
	if err != nil {
		err = fmt.Errorf("ptyhost: close the job object: %w", err)
	}
	select {
	case <-j.watched:
	default:
		_ = windows.PostQueuedCompletionStatus(j.port, 0, jobKeyClose, nil) // Fails only if watch already read the port's end.
		<-j.watched
	}
	_ = windows.CloseHandle(j.port) // Best effort.
	return err
}

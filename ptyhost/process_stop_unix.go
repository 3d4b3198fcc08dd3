//go:build unix

package ptyhost

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// Stop ends the child's whole process group: SIGTERM and SIGHUP (plus
// SIGCONT, so a stopped job can act on them), then SIGKILL if the child has
// not exited within grace. Once the child has exited, whatever is left of its
// group gets SIGKILL at once: it has had its SIGTERM, and a leftover that
// holds the terminal would keep Read from ever reaching EOF. Stop returns
// when the child has been reaped; on an exited child it returns at once.
func (p *Process) Stop(grace time.Duration) error {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()

	// SIGHUP is what a terminal closing sends; interactive shells and
	// REPLs that ignore SIGTERM still honour it.
	err := errors.Join(
		p.signalGroup(syscall.SIGTERM),
		p.signalGroup(syscall.SIGHUP),
		p.signalGroup(syscall.SIGCONT),
	)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-p.done:
	case <-timer.C:
		err = errors.Join(err, p.signalGroup(syscall.SIGKILL))
		<-p.done
	}
	_ = p.signalGroup(syscall.SIGKILL) // Best effort: leftovers of a group whose leader is gone.
	ForgetGroup(p.Pid())               // ended: its id may name another group from now on
	return err
}

// signalGroup sends sig to the child's process group. While the leader is
// unreaped its pid (the group id) cannot be reused, so the signal reaches
// only our processes; mu keeps reap from freeing it meanwhile. After the
// leader is reaped the group id stays reserved as long as any member lives,
// so the signal is still ours unless the group emptied and the pid space
// wrapped around in between; errors then are expected and not reported.
func (p *Process) signalGroup(sig syscall.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	pid := p.Pid()
	err := syscall.Kill(-pid, sig)
	if err == nil || p.reaped || errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return fmt.Errorf("ptyhost: send %v to process group %d: %w", sig, pid, err)
}

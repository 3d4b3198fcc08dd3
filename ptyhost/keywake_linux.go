//go:build linux && (amd64 || arm64)

package ptyhost

import (
	"bytes"
	"strconv"
)

// Waiters lists the foreground group's threads blocked reading this
// terminal or polling, with their run counts (schedstat).
func (p *Process) Waiters() Waiters {
	var w Waiters
	var buf [512]byte
	p.walkGroup(func(pid int, _ [][]byte) bool {
		for _, tid := range p.procs.threadsOf(pid) {
			switch p.threadInput(pid, tid, buf[:]) {
			case InputReading, InputPolling:
				if runs, ok := p.threadRunCount(pid, tid, buf[:]); ok {
					w.threads = append(w.threads, threadRuns{pid, tid, runs})
				}
			}
		}
		return true
	})
	return w
}

// WokeSince reports whether one of w's threads has been on a CPU since w
// was taken: it woke, for the keys or for a signal. A thread gone (it
// ended, or the program did) woke too.
func (p *Process) WokeSince(w Waiters) (woke, known bool) {
	var buf [128]byte
	for _, t := range w.threads {
		runs, ok := p.threadRunCount(t.pid, t.tid, buf[:])
		if !ok || runs != t.runs {
			return true, true
		}
	}
	return false, len(w.threads) > 0
}

// threadRunCount is how many times a thread has been scheduled onto a
// CPU: the third field of its schedstat, read through the look's kept
// file (the same one threadInput read).
func (p *Process) threadRunCount(pid, tid int, buf []byte) (uint64, bool) {
	b := p.procs.read(pid, procKey{tid, procSchedstat}, buf)
	f := bytes.Fields(b)
	if len(f) < 3 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(f[2]), 10, 64)
	return n, err == nil
}

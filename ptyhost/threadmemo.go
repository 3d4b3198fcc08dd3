package ptyhost

import "sync"

// threadMemo remembers how InputWait found each thread, with the thread's
// scheduling counters then (/proc/PID/task/TID/schedstat: time on a CPU,
// time waiting for one, times scheduled). A thread whose counters have
// not moved has not run since: it is in the same system call, or still
// waiting for a CPU, so it is found as before from one small read, not
// three (its stat, its system call, its descriptor's link). Most threads
// of a TUI, a runtime's parked workers, do not run between two looks; a
// TUI redrawing every 10 ms is looked at on every pause, and in Codex's
// first second those walks were 70% of yume-cli's CPU.
type threadMemo struct {
	mu   sync.Mutex
	seen map[int]memoEntry // by thread id
}

type memoEntry struct {
	sched string // the counters, as read
	st    InputState
}

// maxMemo bounds the threads remembered: past it (threads come and go),
// the memo starts again.
const maxMemo = 512

// get is how thread tid was found, if its counters are still sched.
func (m *threadMemo) get(tid int, sched []byte) (InputState, bool) {
	if len(sched) == 0 {
		return 0, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.seen[tid]
	if !ok || e.sched != string(sched) {
		return 0, false
	}
	return e.st, true
}

// put remembers that thread tid, with counters sched, was found st.
func (m *threadMemo) put(tid int, sched string, st InputState) {
	if sched == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seen == nil || len(m.seen) >= maxMemo {
		m.seen = make(map[int]memoEntry)
	}
	m.seen[tid] = memoEntry{sched, st}
}

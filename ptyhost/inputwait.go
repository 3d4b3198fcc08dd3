package ptyhost

// InputState is what the program in the foreground of its terminal is
// doing, as the operating system sees it: the one fact that tells a
// question from output without a rule.
type InputState int

const (
	// InputUnknown: the platform cannot tell (or the program is gone).
	InputUnknown InputState = iota
	// InputBusy: running, or waiting on something other than its
	// terminal (a child it started, a timer).
	InputBusy
	// InputReading: blocked in a read of its terminal: it waits for a
	// line or a key, so what the screen shows now is a question.
	InputReading
	// InputPolling: blocked waiting on several things (poll, epoll,
	// select), as event-loop programs (Node, prompt_toolkit) wait for
	// keys; a question when the terminal is in raw mode.
	InputPolling
	// InputRunning: on a CPU right now: still working out what to print,
	// so a question-shaped line on screen may not be one yet.
	InputRunning
)

func (s InputState) String() string {
	return [...]string{"unknown", "busy", "reading the terminal", "polling", "running"}[s]
}

// inputWaiter is a Terminal that can say what its program waits for.
type inputWaiter interface{ InputWait() InputState }

// InputWaitOf asks t, through any wrappers that pass it on.
func InputWaitOf(t Terminal) InputState {
	if w, ok := As[inputWaiter](t); ok {
		return w.InputWait()
	}
	return InputUnknown
}

// CPUTimeOf is the CPU time t's program has used (Process.CPUTime),
// through any wrappers that pass it on; ok is false where t cannot tell.
func CPUTimeOf(t Terminal) (ticks uint64, ok bool) {
	if c, found := As[interface{ CPUTime() (uint64, bool) }](t); found {
		return c.CPUTime()
	}
	return 0, false
}

// UnreadOf is how much the program printed that has not been read from t
// yet (0 where the terminal cannot tell).
func UnreadOf(t Terminal) int {
	if u, ok := As[interface{ Unread() int }](t); ok {
		return u.Unread()
	}
	return 0
}

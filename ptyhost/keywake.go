package ptyhost

// Waiters is a snapshot of the threads of a terminal's foreground process
// group that wait for input (blocked reading the terminal, or polling),
// each with how many times it had been on a CPU. Keys typed into a pty
// reach the program later than the write returns (the kernel hands them
// on from a worker; under load that is tens of milliseconds), and until
// then the program still looks blocked reading, as if it had read them.
// A waiter that has run since the keys went is the evidence that they
// reached it (Process.WokeSince).
type Waiters struct {
	threads []threadRuns
}

type threadRuns struct {
	pid, tid int
	runs     uint64
}

// Empty reports that no thread waited for input when w was taken.
func (w Waiters) Empty() bool { return len(w.threads) == 0 }

type keyWaker interface {
	Waiters() Waiters
	WokeSince(Waiters) (woke, known bool)
}

// WaitersOf asks t (through its wrappers) which threads wait for input.
func WaitersOf(t Terminal) Waiters {
	if k, ok := As[keyWaker](t); ok {
		return k.Waiters()
	}
	return Waiters{}
}

// WokeSince reports whether a thread of w has run since w was taken;
// known is false where t cannot tell or w holds no thread.
func WokeSince(t Terminal, w Waiters) (woke, known bool) {
	if k, ok := As[keyWaker](t); ok && !w.Empty() {
		return k.WokeSince(w)
	}
	return false, false
}

package ptyhost

// syscallKinds sorts the arm64 system calls a waiting program sits in.
// waitSyscall is wait4, futexSyscall futex: waits that say nothing.
const (
	waitSyscall  = 260
	futexSyscall = 98
)

var syscallKinds = map[int]InputState{
	63:  InputReading, // read
	65:  InputReading, // readv
	67:  InputReading, // pread64
	72:  InputPolling, // pselect6
	73:  InputPolling, // ppoll
	22:  InputPolling, // epoll_pwait
	441: InputPolling, // epoll_pwait2
}

package ptyhost

// syscallKinds sorts the x86-64 system calls a waiting program sits in.
// waitSyscall is wait4, futexSyscall futex: waits that say nothing.
const (
	waitSyscall  = 61
	futexSyscall = 202
)

var syscallKinds = map[int]InputState{
	0:   InputReading, // read
	17:  InputReading, // pread64
	19:  InputReading, // readv
	7:   InputPolling, // poll
	23:  InputPolling, // select
	232: InputPolling, // epoll_wait
	270: InputPolling, // pselect6
	271: InputPolling, // ppoll
	281: InputPolling, // epoll_pwait
	441: InputPolling, // epoll_pwait2
}

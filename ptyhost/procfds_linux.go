package ptyhost

import (
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// procFDs keeps the /proc files a look at the program reads (InputWait,
// Waiters, CPUTime) open between looks, and reads each again from its
// start (pread): a fresh read, as /proc makes its text on every read at
// offset 0. Opening is the cost: a path walk in procfs and a new inode
// each time, five times the read (37 threads' schedstat: 220 µs opened,
// 39 µs read again). Codex's TUI has 36 threads over two processes and
// pauses about a hundred times in its first second, each pause looked
// at: 36–40 ms of yume-cli's CPU, on two cores taken from a program
// that was using both.
//
// A task's files are kept by its id and a name. A file of a task that
// ended reads ESRCH and is opened again by its path, for the task that
// may have the id now; its anchor (a process's stat, a thread's
// schedstat: read first by every look at it) opened again drops the
// task's other files, which would otherwise keep reading the ended
// task (its children and threads lists read empty, not ESRCH).
type procFDs struct {
	mu     sync.Mutex
	fds    map[procKey]int
	closed bool // the program is done: a late look keeps nothing open
}

// procKey names a kept file: a task id (a process's or a thread's; they
// share one space) and which of its files.
type procKey struct {
	id   int
	file procName
}

type procName uint8

const (
	procStat      procName = iota // /proc/PID/stat (a process's anchor)
	procTaskDir                   // /proc/PID/task (its threads)
	procChildren                  // /proc/PID/task/PID/children
	procSchedstat                 // /proc/PID/task/TID/schedstat (a thread's anchor)
	procTaskStat                  // /proc/PID/task/TID/stat
	procSyscall                   // /proc/PID/task/TID/syscall
)

func (n procName) anchor() bool { return n == procStat || n == procSchedstat }

// ofThread says the file is a thread's: a thread's files and its
// process's are dropped apart (a leader's thread id is its process id).
func (n procName) ofThread() bool { return n >= procSchedstat }

// maxProcFDs bounds the files kept. Those of tasks that ended are not
// noticed until read; past the bound (processes come and go as a TUI
// runs commands) all are closed and the next look opens what it reads.
const maxProcFDs = 256

// path is the file's path; pid is the process of a thread's files.
func (k procKey) path(pid int) string {
	p, id := "/proc/"+strconv.Itoa(pid), strconv.Itoa(k.id)
	switch k.file {
	case procStat:
		return p + "/stat"
	case procTaskDir:
		return p + "/task"
	case procChildren:
		return p + "/task/" + id + "/children"
	case procSchedstat:
		return p + "/task/" + id + "/schedstat"
	case procTaskStat:
		return p + "/task/" + id + "/stat"
	default:
		return p + "/task/" + id + "/syscall"
	}
}

// read reads k's file (of process pid) into buf, from a kept descriptor
// where there is one; what does not fit is cut (nil: it could not be
// read, the task ended).
func (c *procFDs) read(pid int, k procKey, buf []byte) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return procFile(k.path(pid), buf)
	}
	if fd, ok := c.fds[k]; ok {
		if b, err := preadAll(fd, buf); err == nil {
			return b
		}
		c.closeKey(k) // the task ended: its id may be another's now
	}
	fd, ok := c.openKey(pid, k)
	if !ok {
		return nil
	}
	b, err := preadAll(fd, buf)
	if err != nil {
		c.closeKey(k)
		return nil
	}
	return b
}

// threadsOf lists pid's threads (at least pid itself) from its kept task
// directory, read again from its start.
func (c *procFDs) threadsOf(pid int) []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return threads(pid)
	}
	k := procKey{pid, procTaskDir}
	fd, ok := c.fds[k]
	if !ok {
		if fd, ok = c.openKey(pid, k); !ok {
			return []int{pid}
		}
	} else if _, err := unix.Seek(fd, 0, 0); err != nil {
		c.closeKey(k)
		return []int{pid}
	}
	return listThreads(fd, pid)
}

// openKey opens k's file and keeps it; an anchor's opening drops the
// task's other files, kept from a task that may have ended.
func (c *procFDs) openKey(pid int, k procKey) (int, bool) {
	if k.file.anchor() {
		for other := range c.fds {
			if other.id == k.id && other.file.ofThread() == k.file.ofThread() {
				c.closeKey(other)
			}
		}
	}
	flags := unix.O_RDONLY | unix.O_CLOEXEC
	if k.file == procTaskDir {
		flags |= unix.O_DIRECTORY
	}
	fd, err := unix.Open(k.path(pid), flags, 0)
	if err != nil {
		return -1, false
	}
	if len(c.fds) >= maxProcFDs {
		c.closeAll()
	}
	if c.fds == nil {
		c.fds = make(map[procKey]int)
	}
	c.fds[k] = fd
	return fd, true
}

func (c *procFDs) closeKey(k procKey) {
	if fd, ok := c.fds[k]; ok {
		_ = unix.Close(fd) // read-only
		delete(c.fds, k)
	}
}

func (c *procFDs) closeAll() {
	for k := range c.fds {
		c.closeKey(k)
	}
}

// close closes every kept file (the program is done).
func (c *procFDs) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closeAll()
	c.closed = true
}

// preadAll reads fd from offset 0 into buf, until buf is full or the
// file ends.
func preadAll(fd int, buf []byte) ([]byte, error) {
	n := 0
	for n < len(buf) {
		k, err := unix.Pread(fd, buf[n:], int64(n))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if k == 0 {
			break
		}
		n += k
	}
	return buf[:n], nil
}

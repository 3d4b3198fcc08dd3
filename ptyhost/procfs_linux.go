package ptyhost

import (
	"bytes"
	"strconv"

	"golang.org/x/sys/unix"
)

// Small reads of /proc, for SelfUpdates and the orphans: each file read
// with one open, read and close, and directories listed without a stat
// of each entry. InputWait, which looks far more often, keeps its files
// open (procfds_linux.go).

// procFile reads a /proc file into buf with one open, read(s) and close:
// os.ReadFile also stats it and offers it to the poller, twice the
// system calls, and under load each is a chance to be descheduled. What
// does not fit buf is cut (nil: it could not be read).
func procFile(path string, buf []byte) []byte {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd) //nolint:errcheck // read-only
	n := 0
	for n < len(buf) {
		k, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil
		}
		if k == 0 {
			break
		}
		n += k
	}
	return buf[:n]
}

// statText is the fields of a /proc stat file's text after the command
// name: state ppid pgrp … (nil for nil: it could not be read).
func statText(stat []byte) [][]byte {
	if stat == nil {
		return nil
	}
	return bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
}

// threads lists pid's threads (at least pid itself).
func threads(pid int) []int {
	fd, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/task", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return []int{pid}
	}
	defer unix.Close(fd) //nolint:errcheck // read-only
	return listThreads(fd, pid)
}

// listThreads lists the threads in the task directory open as fd, from
// where it is (at least pid itself).
func listThreads(fd, pid int) []int {
	out := []int{}
	var buf [4096]byte
	var names []string
	for {
		n, err := unix.Getdents(fd, buf[:])
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names[:0])
		for _, name := range names {
			if tid, err := strconv.Atoi(name); err == nil {
				out = append(out, tid)
			}
		}
	}
	if len(out) == 0 {
		return []int{pid}
	}
	return out
}

// childrenOf lists pid's children from its threads' children lists
// (CONFIG_PROC_CHILDREN), one small read each; false where its first
// thread has no list (a kernel without them, or pid gone). buf holds a
// list at a time.
func childrenOf(pid int, buf []byte) ([]int, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	var kids []int
	for i, tid := range threads(pid) {
		b := procFile(dir+strconv.Itoa(tid)+"/children", buf)
		if b == nil {
			if i == 0 {
				return nil, false
			}
			continue // a thread that ended
		}
		for _, f := range bytes.Fields(b) {
			if kid, err := strconv.Atoi(string(f)); err == nil {
				kids = append(kids, kid)
			}
		}
	}
	return kids, true
}

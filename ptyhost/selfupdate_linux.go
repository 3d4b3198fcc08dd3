package ptyhost

import (
	"os"
	"strconv"
	"strings"
)

// SelfUpdates lists the command lines of the processes under yume-cli
// (its children, theirs, and the orphans it adopted) that install or
// update a program for the whole machine. It walks the process tree down
// from this process (/proc/PID/task/TID/children, each thread's: a child
// is listed under the thread that forked it), with one small read a file
// and no stat of each (procFile, threads): it runs every second, and a
// TUI's runtime has tens of threads.
func SelfUpdates() []string {
	var found []string
	var buf [16 << 10]byte
	self := os.Getpid()
	seen := map[int]bool{}
	queue := []int{self}
	for len(queue) > 0 && len(seen) < 4096 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		dir := "/proc/" + strconv.Itoa(pid)
		if pid != self {
			if b := procFile(dir+"/cmdline", buf[:]); b != nil {
				if cmd := strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " ")); IsSelfUpdate(cmd) {
					found = append(found, cmd)
				}
			}
		}
		kids, _ := childrenOf(pid, buf[:])
		queue = append(queue, kids...)
	}
	return found
}

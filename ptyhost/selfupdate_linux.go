package ptyhost

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// SelfUpdates lists the command lines of the processes under yume-cli
// (its children, theirs, and the orphans it adopted) that install or
// update a program for the whole machine. It walks the process tree down
// from this process (/proc/PID/task/*/children): a few reads, cheap
// enough to look every second.
func SelfUpdates() []string {
	var found []string
	seen := map[int]bool{}
	queue := []int{os.Getpid()}
	for len(queue) > 0 && len(seen) < 4096 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		if pid != os.Getpid() {
			if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); err == nil {
				if cmd := strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " ")); IsSelfUpdate(cmd) {
					found = append(found, cmd)
				}
			}
		}
		lists, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/[0-9]*/children")
		for _, l := range lists {
			b, _ := os.ReadFile(l)
			for _, f := range strings.Fields(string(b)) {
				if kid, err := strconv.Atoi(f); err == nil {
					queue = append(queue, kid)
				}
			}
		}
	}
	return found
}

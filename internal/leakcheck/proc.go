package leakcheck

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// OpenFDs returns this process's open file descriptors, each with what it
// refers to (the /proc/self/fd link target, such as "/dev/ptmx" or
// "pipe:[123]"; empty where links are not available).
func OpenFDs() (map[int]string, error) {
	dir := fdDir()
	// os.ReadDir opens the directory itself; its descriptor is listed but
	// closed again by the time we look at the links, so it is dropped below.
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list open file descriptors in %s: %w", dir, err)
	}
	fds := make(map[int]string, len(entries))
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		target, err := os.Readlink(filepath.Join(dir, e.Name()))
		if errors.Is(err, fs.ErrNotExist) {
			continue // The ReadDir descriptor, closed since.
		}
		fds[fd] = target
	}
	return fds, nil
}

// Zombies returns the pids of this process's children that have exited but
// not been reaped (state Z in /proc/PID/stat). Without /proc it returns nil.
func Zombies() ([]int, error) {
	entries, err := os.ReadDir("/proc")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list processes in /proc: %w", err)
	}
	self := os.Getpid()
	var zombies []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, ppid, ok := readStat(pid)
		if ok && ppid == self && state == "Z" {
			zombies = append(zombies, pid)
		}
	}
	return zombies, nil
}

// readStat returns the state and parent pid from /proc/PID/stat. The process
// may vanish while we look; ok is false then.
func readStat(pid int) (state string, ppid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	// "pid (comm) state ppid ...": comm may hold spaces and parentheses,
	// so the fields start after the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return "", 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	return f[0], ppid, err == nil
}

// State returns the state letter of process pid from /proc/PID/stat ("R",
// "S", "Z", ...), or "" if there is no such process. Tests use it to check
// that a process is gone: "" or "Z" (dead, waiting for its parent).
func State(pid int) string {
	state, _, _ := readStat(pid)
	return state
}

//go:build linux && (amd64 || arm64)

package ptyhost

import "strconv"

// CPUTime is the CPU time the terminal's foreground process group has
// used so far (user and system, its reaped children's included), in clock
// ticks: only its growth means anything. A look at whether the program is
// on a CPU is a snapshot, and a program that computes in bursts is asleep
// between them; the time it used since the last reading says it worked.
// ok is false where the group cannot be read.
func (p *Process) CPUTime() (ticks uint64, ok bool) {
	p.walkGroup(func(_ int, f [][]byte) bool {
		if len(f) < 15 {
			return true
		}
		for _, v := range f[11:15] { // utime stime cutime cstime (fields 14-17)
			t, _ := strconv.ParseUint(string(v), 10, 64)
			ticks += t
		}
		ok = true
		return true
	})
	return ticks, ok
}

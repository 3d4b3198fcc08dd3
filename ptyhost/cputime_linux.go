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
	pgid, err := p.foreground()
	if err != nil || pgid <= 0 {
		return 0, false
	}
	var buf [512]byte
	queue := []int{pgid}
	for n := 0; len(queue) > 0 && n < maxGroupWalk; n++ {
		pid := queue[0]
		queue = queue[1:]
		f := statFields("/proc/"+strconv.Itoa(pid)+"/stat", buf[:])
		if len(f) < 15 || string(f[2]) != strconv.Itoa(pgid) {
			continue // gone, or a background job
		}
		for _, v := range f[11:15] { // utime stime cutime cstime (fields 14-17)
			t, _ := strconv.ParseUint(string(v), 10, 64)
			ticks += t
		}
		ok = true
		queue = append(queue, children(pid)...)
	}
	return ticks, ok
}

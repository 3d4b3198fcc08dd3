package driver

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// wakeTimer wakes the live source at its deadline to within tens of
// microseconds: a timerfd read through Go's poller. With every goroutine
// waiting, Go's own timers sleep in epoll_wait, whose timeout is whole
// milliseconds: a deadline 1.3 ms away fired 0.97 ms late (median of 200;
// a timerfd 0.09 ms), and a question waits on two of them (the pause, the
// look at the program).
type wakeTimer struct {
	f  *os.File // nil: the timerfd could not be made; fallback does it
	fd int
	c  chan struct{}
	fallback
}

func newWakeTimer() *wakeTimer {
	t := &wakeTimer{c: make(chan struct{}, 1)}
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		t.fallback.c = t.c
		return t
	}
	t.fd, t.f = fd, os.NewFile(uintptr(fd), "timerfd") // non-blocking: read through the poller
	go t.run(t.f)
	return t
}

// run passes each expiry on until the timer is closed.
func (t *wakeTimer) run(f *os.File) {
	var n [8]byte
	for {
		if _, err := f.Read(n[:]); err != nil {
			return
		}
		select {
		case t.c <- struct{}{}:
		default:
		}
	}
}

// set arms the timer to fire once after wait (at once if wait ≤ 0). A fire
// armed before may still arrive: the caller checks its clock.
func (t *wakeTimer) set(wait time.Duration) <-chan struct{} {
	if t.f == nil {
		return t.fallback.set(wait)
	}
	select {
	case <-t.c:
	default:
	}
	its := unix.ItimerSpec{Value: unix.NsecToTimespec(max(int64(wait), 1))}
	_ = unix.TimerfdSettime(t.fd, 0, &its, nil)
	return t.c
}

// stop ends the timer and its goroutine.
func (t *wakeTimer) stop() {
	if t.f == nil {
		t.fallback.stop()
		return
	}
	_ = t.f.Close()
}

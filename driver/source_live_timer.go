package driver

import "time"

// fallback is a wakeTimer on Go's own timer, where no finer one is made.
type fallback struct {
	c chan struct{}
	t *time.Timer
}

func (f *fallback) set(wait time.Duration) <-chan struct{} {
	select {
	case <-f.c:
	default:
	}
	if f.t == nil {
		f.t = time.AfterFunc(wait, func() {
			select {
			case f.c <- struct{}{}:
			default:
			}
		})
	} else {
		f.t.Reset(wait)
	}
	return f.c
}

func (f *fallback) stop() {
	if f.t != nil {
		f.t.Stop()
	}
}

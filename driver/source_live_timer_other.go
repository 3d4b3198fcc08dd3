//go:build !linux

package driver

// wakeTimer is Go's own timer here.
type wakeTimer struct{ fallback }

func newWakeTimer() *wakeTimer { return &wakeTimer{fallback{c: make(chan struct{}, 1)}} }

//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package ptyhost

import (
	"os"
	"runtime"
)

// Elsewhere no event says that stdout's reader is gone: a failed write
// says it (Lost). The parent is looked at every parentPoll, except on
// Windows, where the parent id a process keeps never changes.

// watch looks at the parent until it is gone.
func (g *GUIWatch) watch() {
	if runtime.GOOS != "windows" {
		g.pollParent()
	}
}

// own: no descriptor is watched here.
func (g *GUIWatch) own(*os.File) {}

// look checks now: only the parent can be looked at.
func (g *GUIWatch) look() string {
	if g.parentGone() {
		return whyParentExited
	}
	return ""
}

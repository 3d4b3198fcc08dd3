//go:build !linux

package ptyhost

import "time"

// AdoptOrphans is Linux-only (PR_SET_CHILD_SUBREAPER); elsewhere a daemon a
// provider detaches is re-parented to init as usual.
func AdoptOrphans() error { return nil }

// EndOrphans does nothing where AdoptOrphans cannot adopt.
func EndOrphans(time.Duration) int { return 0 }

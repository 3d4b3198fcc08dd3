//go:build unix && !linux

package sessions

import "syscall"

// unixSync is sync(2); the BSDs' and macOS's syscall.Sync says whether it
// failed.
func unixSync() error { return syscall.Sync() }

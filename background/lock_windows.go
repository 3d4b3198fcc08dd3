//go:build windows

package background

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockOffset is where the locked byte lies: far past the file's words, so
// that another process can still read who holds it (a locked range cannot
// be read on Windows).
const lockOffset = 1 << 32

// tryLock takes an exclusive LockFileEx of one byte of f without waiting;
// false when another process holds it.
func tryLock(f *os.File) (bool, error) {
	ol := windows.Overlapped{OffsetHigh: lockOffset >> 32}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION), errors.Is(err, windows.ERROR_IO_PENDING):
		return false, nil
	}
	return false, err
}

func unlock(f *os.File) {
	ol := windows.Overlapped{OffsetHigh: lockOffset >> 32}
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol) // Best effort: closing releases it too.
}

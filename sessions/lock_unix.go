//go:build unix

package sessions

import (
	"os"
	"path/filepath"
	"syscall"
)

// locked runs fn holding the store's lock file: an flock, released by the
// kernel even when the process is killed.
func (s *Store) locked(fn func() error) error {
	if err := os.MkdirAll(s.root, 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(s.root, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN) //nolint:errcheck // Closing releases it too.
	return fn()
}

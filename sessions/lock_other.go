//go:build !unix

package sessions

import (
	"os"
	"path/filepath"
	"time"
)

// locked runs fn holding the store's lock: a lock file created
// exclusively (retried until it can be), where flock is not available.
func (s *Store) locked(fn func() error) error {
	if err := os.MkdirAll(s.root, 0o700); err != nil {
		return err
	}
	lock := filepath.Join(s.root, ".lock.d")
	for deadline := time.Now().Add(10 * time.Second); ; {
		if err := os.Mkdir(lock, 0o700); err == nil {
			break
		} else if time.Now().After(deadline) {
			_ = os.Remove(lock) // a stale lock of a killed process
		}
		time.Sleep(5 * time.Millisecond) // Polling: no lock primitive to wait on here.
	}
	defer os.Remove(lock) // Best effort.
	return fn()
}

//go:build unix

package run

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/leakcheck"
	"github.com/yume-cli/yume-cli/sessions"
)

// TestCheckpointDoesNotWait: a checkpoint returns while the store is
// busy (another yume-cli holds its lock), and stores once it is free:
// the driver that read the handle asks its question meanwhile.
func TestCheckpointDoesNotWait(t *testing.T) {
	root := t.TempDir()
	lock, err := os.OpenFile(filepath.Join(root, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	conv := &conversation{store: sessions.Open(root), tap: &sessions.Tap{}}
	conv.sess = &sessions.Session{ID: "s1", Provider: "codex", Created: time.Now().UTC(), Updated: time.Now().UTC()}
	returned := make(chan struct{})
	go func() {
		conv.checkpoint("pty", "handle-1")
		close(returned)
	}()
	select {
	case <-returned:
	case <-time.After(30 * time.Second):
		t.Fatal("the checkpoint waited for the store's lock")
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	leakcheck.WaitUntil(t, 30*time.Second, "the checkpoint was never stored", func() bool {
		s, err := sessions.Open(root).Load("s1")
		return err == nil && s.Handle == "handle-1"
	})
}

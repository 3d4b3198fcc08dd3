package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/leakcheck"
	"github.com/yume-cli/yume-cli/sessions"
)

// TestCheckpointStoresInTheBackground: a checkpoint returns before its
// save (the driver asks the program's first question meanwhile), the
// session is stored with the provider's handle soon after, and a turn's
// end made right after it stores everything once it returns, with no
// checkpoint left writing and no temp file behind.
func TestCheckpointStoresInTheBackground(t *testing.T) {
	for _, c := range []struct {
		name        string
		endAtOnce   bool // the turn ends right after the handle is known
		checkpoints int
	}{
		{"stored soon after", false, 1},
		{"the turn's end right after", true, 1},
		{"handles in a row, then the end", true, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			conv := &conversation{store: sessions.Open(root), tap: &sessions.Tap{}}
			conv.sess = &sessions.Session{ID: "s1", Provider: "codex", Created: time.Now().UTC(), Updated: time.Now().UTC()}
			for i := range c.checkpoints {
				conv.checkpoint("pty", "handle-"+strings.Repeat("x", i+1))
			}
			want := "handle-" + strings.Repeat("x", c.checkpoints)
			if c.endAtOnce {
				conv.said("the prompt")
				if err := conv.turnEnded("pty", ""); err != nil {
					t.Fatal(err)
				}
			} else {
				leakcheck.WaitUntil(t, 30*time.Second, "the checkpoint was never stored", func() bool {
					s, err := sessions.Open(root).Load("s1")
					return err == nil && s.Handle == want
				})
			}
			conv.mu.Lock() // a checkpoint still saving holds it
			defer conv.mu.Unlock()
			s, err := sessions.Open(root).Load("s1")
			if err != nil || s.Handle != want {
				t.Fatalf("stored %+v (%v); want the handle %s", s, err, want)
			}
			if c.endAtOnce && (len(s.History) != 1 || s.History[0].Text != "the prompt") {
				t.Fatalf("history %+v: the turn's end was not stored last", s.History)
			}
			files, _ := filepath.Glob(filepath.Join(root, "*", "*"))
			for _, f := range files {
				if b := filepath.Base(f); !strings.HasPrefix(b, "s1.") {
					st, _ := os.Stat(f)
					t.Errorf("left in the store: %s (%v)", b, st.Size())
				}
			}
		})
	}
}

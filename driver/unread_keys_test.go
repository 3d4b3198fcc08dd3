//go:build unix

package driver_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// replyCounter is a trace that signals once the driver has answered n
// terminal queries.
type replyCounter struct {
	mu      sync.Mutex
	n, want int
	reached chan struct{}
}

func (c *replyCounter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += strings.Count(string(p), `"why":"reply"`)
	if c.n >= c.want && c.reached != nil {
		close(c.reached)
		c.reached = nil
	}
	return len(p), nil
}

// TestDriveNeverBlocksOnTheProgram: a program that floods cursor-position
// queries and never reads its terminal fills the PTY's input buffer with
// yume-cli's replies. The driver must still take an interrupt frame and
// end the turn, instead of hanging in a write.
func TestDriveNeverBlocksOnTheProgram(t *testing.T) {
	prof, err := heuristics.ParseProfile("flood.yaml", []byte("name: flood\ndescription: x\nrules: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	// 40,000 queries: 240 KB of replies, far over a PTY's input buffer.
	flood := `stty raw -echo; i=0; while [ $i -lt 400 ]; do printf '\033[6n%.0s' $(seq 1 100); i=$((i+1)); done; exec sleep 60`
	proc, err := ptyhost.Start(ptyhost.Options{Argv: []string{"sh", "-c", flood}, Env: testEnv(), Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	defer proc.Close()
	var out bytes.Buffer
	w := emit.NewWriter(&out, emit.Config{})
	_ = w.Init("default", []string{"Bash"})
	controls := make(chan emit.Control, 1)
	trace := &replyCounter{want: 20000, reached: make(chan struct{})}
	reached := trace.reached
	ended := make(chan driver.Outcome, 1)
	go func() {
		o, _ := driver.Drive(context.Background(), driver.Config{Term: proc, Profile: prof, Out: w,
			Controls: controls, Mode: permission.Default, Cols: 80, Rows: 24, Trace: trace})
		ended <- o
	}()
	select {
	case <-reached: // the PTY's input buffer is long full
	case <-time.After(testTimeout):
		t.Fatal("the driver stopped answering the program's queries: blocked writing to a program that does not read")
	}
	controls <- emit.Control{Kind: emit.ControlInterrupt}
	select {
	case o := <-ended:
		if !o.Interrupted || !strings.Contains(out.String(), `{"type":"interrupt"`) {
			t.Errorf("outcome %+v, stream:\n%s", o, out.String())
		}
	case <-time.After(testTimeout):
		_ = proc.Close() // unblock the driver so the test can end
		t.Fatal("an interrupt frame went unanswered: the driver is blocked writing to a program that does not read")
	}
}

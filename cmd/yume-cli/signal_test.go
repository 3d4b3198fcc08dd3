//go:build unix

package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/leakcheck"
)

// TestSignalsEndTheStream: SIGINT, SIGTERM or SIGHUP to yume-cli stop the
// child's whole process group and still end the stream with a result.
func TestSignalsEndTheStream(t *testing.T) {
	bin := buildCLI(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			// The child starts a grandchild and both wait; the pid file says when.
			script := `sleep 300 & echo $! > grandchild.pid; echo $$ > child.pid; wait`
			cmd := exec.Command(bin, "--output-format", "stream-json", "--cwd", dir, "--", "sh", "-c", script)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pids := waitPids(t, filepath.Join(dir, "child.pid"), filepath.Join(dir, "grandchild.pid"))
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			// As a shell reports a program a signal ended: 130 for Ctrl-C.
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 128+int(sig) {
				t.Errorf("exit: %v, want status %d; stderr %s", err, 128+int(sig), stderr.String())
			}
			if !strings.Contains(stdout.String(), "yume-cli received "+map[syscall.Signal]string{syscall.SIGINT: "SIGINT (Ctrl-C)", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}[sig]) {
				t.Errorf("the result does not name the signal:\n%s", stdout.String())
			}
			types := streamTypes(t, stdout.String())
			if got := strings.Join(types, ","); got != "system/init,interrupt,result,message_stop" {
				t.Errorf("events %s", got)
			}
			// SIGKILL is delivered asynchronously: allow the kernel a moment.
			for _, pid := range pids {
				leakcheck.WaitGone(t, pid, 5*time.Second)
			}
		})
	}
}

func isLinux() bool { _, err := os.Stat("/proc/self/stat"); return err == nil }

// waitPids waits for pid files to be written and returns the pids.
func waitPids(t *testing.T, files ...string) []int {
	t.Helper()
	var pids []int
	deadline := time.Now().Add(20 * time.Second)
	for _, f := range files {
		for {
			b, err := os.ReadFile(f)
			if err == nil && bytes.HasSuffix(b, []byte("\n")) {
				sc := bufio.NewScanner(bytes.NewReader(b))
				sc.Scan()
				pid, _ := strconv.Atoi(sc.Text())
				pids = append(pids, pid)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s was never written", f)
			}
			time.Sleep(5 * time.Millisecond) // Polling a condition under a deadline.
		}
	}
	return pids
}

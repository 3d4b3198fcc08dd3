package structured

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

var versionRE = regexp.MustCompile(`\d+\.\d+\.\d+`)

// versionCache maps "path|size|mtime" to a detected version, so a binary
// replaced by an update is asked again.
var versionCache sync.Map

// DetectVersion runs `bin --version` and returns the first x.y.z in its
// output. Results are cached per binary file for the life of the process.
func DetectVersion(ctx context.Context, bin string) (string, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return "", fmt.Errorf("%s not found in PATH: %w", bin, err)
	}
	key := path
	if fi, err := os.Stat(path); err == nil {
		key = fmt.Sprintf("%s|%d|%d", path, fi.Size(), fi.ModTime().UnixNano())
	}
	if v, ok := versionCache.Load(key); ok {
		return v.(string), nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "CI=1")
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	v := versionRE.FindString(string(out))
	if v == "" {
		if err != nil {
			return "", fmt.Errorf("%s --version failed: %w", path, err)
		}
		return "", fmt.Errorf("%s --version printed no version number: %q", path, strings.TrimSpace(string(out)))
	}
	versionCache.Store(key, v)
	return v, nil
}

// Supports reports whether version of provider has the structured mode
// ("json" or "acp"). An unknown or unparsable version is assumed current,
// since the user chose to install it recently.
func Supports(providerName, version, mode string) bool {
	p, ok := lookupProvider(providerName)
	if !ok {
		return false
	}
	min := ""
	switch mode {
	case "json":
		min = p.minJSON
	case "acp":
		min = p.minACP
	}
	if min == "" {
		return false
	}
	v := versionRE.FindString(version)
	if v == "" {
		return true
	}
	return compareVersions(v, min) >= 0
}

// Modes lists the structured modes version of provider supports, best first.
func Modes(providerName, version string) []string {
	var out []string
	for _, m := range []string{"acp", "json"} {
		if Supports(providerName, version, m) {
			out = append(out, m)
		}
	}
	return out
}

// compareVersions compares two x.y.z strings numerically.
func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < 3; i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

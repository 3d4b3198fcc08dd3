package providers

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

// Supports reports whether version is at least since. An unknown or
// unparsable version counts as new enough; an empty since means never.
func Supports(version, since string) bool {
	if since == "" {
		return false
	}
	v := versionRE.FindString(version)
	if v == "" {
		return true
	}
	return CompareVersions(v, since) >= 0
}

// CompareVersions compares two x.y.z strings numerically: -1, 0 or 1.
func CompareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < 3; i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

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

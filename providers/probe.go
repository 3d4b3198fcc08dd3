package providers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Probe is what yume-cli learns by asking a provider's program about
// itself: its version and its --help, from which flags are detected.
type Probe struct {
	Version string `json:"version"`
	Help    string `json:"help"`
}

// probeTimeout bounds one --version or --help run.
const probeTimeout = 30 * time.Second

var (
	probeMu  sync.Mutex
	probeMem = map[string]Probe{}
)

// IsPath reports a program named by its path rather than looked up in
// PATH (on Windows, a backslash says so too).
func IsPath(bin string) bool {
	return strings.ContainsRune(bin, '/') || strings.ContainsRune(bin, filepath.Separator)
}

// NotFound says why bin cannot be run: a path that is not there (or not
// executable), or a name PATH does not have.
func NotFound(bin string) error {
	if IsPath(bin) {
		return fmt.Errorf("%s does not exist or is not executable: check the path (--bin, or the program after --)", bin)
	}
	return fmt.Errorf("%s not found in PATH", bin)
}

// ProbeBinary returns bin's version and --help. Yume starts a process per
// turn, so answers are cached on disk, per binary file (path, size and
// modification time: an update asks again), in CacheDir.
func ProbeBinary(ctx context.Context, bin string) (Probe, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return Probe{}, NotFound(bin)
	}
	key := path
	if fi, err := os.Stat(path); err == nil {
		key = fmt.Sprintf("%s|%d|%d", path, fi.Size(), fi.ModTime().UnixNano())
	}
	probeMu.Lock()
	defer probeMu.Unlock()
	if p, ok := probeMem[key]; ok {
		return p, nil
	}
	cache := loadProbeCache()
	if p, ok := cache[key]; ok {
		probeMem[key] = p
		return p, nil
	}
	p, err := runProbe(ctx, path)
	if err != nil {
		return p, err
	}
	probeMem[key] = p
	cache[key] = p
	saveProbeCache(cache)
	return p, nil
}

// DetectVersion is ProbeBinary's version: the first x.y.z of `bin --version`.
func DetectVersion(ctx context.Context, bin string) (string, error) {
	p, err := ProbeBinary(ctx, bin)
	return p.Version, err
}

func runProbe(ctx context.Context, path string) (Probe, error) {
	out, err := probeRun(ctx, path, "--version")
	v := versionRE.FindString(out)
	if v == "" {
		if err != nil {
			return Probe{}, fmt.Errorf("%s --version failed (%w)%s", path, err, complaint(err, out))
		}
		return Probe{}, fmt.Errorf("%s --version printed no version number: %q", path, strings.TrimSpace(out))
	}
	help, _ := probeRun(ctx, path, "--help") // Best effort: no help means no detected flags.
	return Probe{Version: v, Help: help}, nil
}

// complaint is what a failed probe printed, quoted for its error: the
// program's own words ("error: unknown option '--version'") say what is
// wrong far better than its exit status. The last lines of stderr, else of
// stdout, at most maxComplaint bytes; "" when it printed nothing.
func complaint(err error, stdout string) string {
	said := stdout
	var exit *exec.ExitError
	if errors.As(err, &exit) && strings.TrimSpace(string(exit.Stderr)) != "" {
		said = string(exit.Stderr)
	}
	said = strings.TrimSpace(said)
	if said == "" {
		return ""
	}
	if len(said) > maxComplaint {
		said = "…" + strings.ToValidUTF8(said[len(said)-maxComplaint:], "")
	}
	return ": it said " + strconv.Quote(said)
}

// maxComplaint bounds what an error quotes of a program's output.
const maxComplaint = 400

func probeRun(ctx context.Context, path, flag string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, flag)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "CI=1", "COLUMNS=200")
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	return string(out), err
}

func probeCachePath() string {
	if d := CacheDir(); d != "" {
		return filepath.Join(d, "probes.json")
	}
	return ""
}

func loadProbeCache() map[string]Probe {
	m := map[string]Probe{}
	if path := probeCachePath(); path != "" {
		if b, err := os.ReadFile(path); err == nil {
			_ = json.Unmarshal(b, &m) // A corrupt cache is asked again.
		}
	}
	return m
}

// saveProbeCache writes the cache atomically; failing to is not an error
// (the next process asks the binary again).
func saveProbeCache(m map[string]Probe) {
	path := probeCachePath()
	if path == "" {
		return
	}
	if b, err := json.Marshal(m); err == nil {
		_ = writeAtomic(path, b) // Not an error: the next process asks again.
	}
}

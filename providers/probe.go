package providers

import (
	"bytes"
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
	"sync/atomic"
	"time"
)

// Probe is what yume-cli learns by asking a provider's program about
// itself: its version and its --help, from which flags are detected.
type Probe struct {
	Version string `json:"version"`
	Help    string `json:"help"`
}

// probeTimeout bounds one --version or --help run.
var probeTimeout = 30 * time.Second // a variable: tests shorten it

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
// turn, so answers are cached on disk, per binary file (path, size,
// modification time and package release: an update asks again), and per
// package release (another install of it needs no probe), in CacheDir.
func ProbeBinary(ctx context.Context, bin string) (Probe, error) {
	return probeBinary(ctx, bin, false)
}

func probeBinary(ctx context.Context, bin string, background bool) (Probe, error) {
	path, key, err := probeKey(bin)
	if err != nil {
		return Probe{}, err
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
	p, err := runProbe(ctx, path, background)
	if err != nil {
		return p, err
	}
	probeMem[key] = p
	for k := range cache {
		if strings.HasPrefix(k, path+"|") {
			delete(cache, k) // an earlier release at this path
		}
	}
	cache[key] = p
	if pkg, v := packageOf(path); v != "" && v == p.Version {
		rememberRelease(cache, pkg, p) // learned once for this release, at any path
	}
	saveProbeCache(cache)
	return p, nil
}

// probeKey is bin's path and its cache key: the path, size and
// modification time of the file, and its package's release (if it lies in
// one), so an update is a new key.
func probeKey(bin string) (path, key string, err error) {
	path, err = exec.LookPath(bin)
	if err != nil {
		return "", "", NotFound(bin)
	}
	key = path
	if fi, err := os.Stat(path); err == nil {
		key = fmt.Sprintf("%s|%d|%d", path, fi.Size(), fi.ModTime().UnixNano())
	}
	// A Node CLI's path is a script that an update may leave as it was
	// (and npm may date every file alike): its package's release tells.
	if _, v := packageOf(path); v != "" {
		key += "|" + v
	}
	return path, key, nil
}

// KnownProbe is ProbeBinary without running bin, for provider p: this very
// binary's cached answers (exact); else, its release read from its
// package.json (PackageVersion): what a probe learned of that release at
// any path, or p's own table of it (Provider.Releases, KnownHelp), exact;
// else a guess, the nearest release older than it that p lists or this
// path held before (an update rarely renames a flag; unknown version: the
// release the path held before, else the newest verified). The program
// then starts at once while ProbeLater asks it: a first run after an
// install or an update waited seconds for two runs of a Node CLI. It fails
// only for a bin that is not there.
func KnownProbe(bin string, p *Provider) (probe Probe, exact bool, err error) {
	path, key, err := probeKey(bin)
	if err != nil {
		return Probe{}, false, err
	}
	pkg, version := p.installed(path)
	probeMu.Lock()
	probe, ok := probeMem[key]
	var earlier []Release
	if !ok {
		cache := loadProbeCache()
		probe, ok = cache[key]
		if ok && version != "" && probe.Version != version {
			ok = false // it runs another release now (one it fetched itself)
		}
		if !ok && version != "" {
			probe, ok = cache[releaseKey(pkg, version)]
		}
		if ok {
			probeMem[key] = probe
		}
		for k, c := range cache {
			if strings.HasPrefix(k, path+"|") && c.Version != "" {
				earlier = append(earlier, Release{Version: c.Version, Help: c.Help})
			}
		}
	}
	probeMu.Unlock()
	if ok {
		return probe, true, nil
	}
	// Of a release not read, a guess: the newest this path held, else the
	// newest verified. Of a release read: its own, else the nearest older
	// one, of those p lists and those this path held.
	if version == "" {
		if r, _ := nearestRelease(sortedReleases(earlier), "999999.0.0"); r.Version != "" {
			return Probe{Version: r.Version, Help: r.Help}, false, nil
		}
		return Probe{Help: p.KnownHelp}, false, nil
	}
	r, exact := nearestRelease(sortedReleases(append(p.releases(), earlier...)), version)
	if r.Help == "" {
		r.Help = p.KnownHelp
	}
	return Probe{Version: version, Help: r.Help}, exact, nil
}

// PendingProbe is a probe that runs in the background once started
// (ProbeLater; or LaterProbe, then Start or Wait).
type PendingProbe struct {
	ctx     context.Context
	bin     string
	once    sync.Once
	started atomic.Bool
	done    chan struct{}
	probe   Probe
	err     error
}

// ProbeLater asks bin for its version and --help in the background, as
// ProbeBinary does (the answers cached for the next run), at the lowest
// CPU priority where the platform allows.
func ProbeLater(ctx context.Context, bin string) *PendingProbe {
	pp := LaterProbe(ctx, bin)
	pp.Start()
	return pp
}

// LaterProbe is ProbeLater not started yet: Start or Wait starts it. A
// program starting meanwhile keeps the CPU to itself: on 2 cores Gemini
// CLI's start took 19% longer beside its own --version and --help, even
// at the lowest priority.
func LaterProbe(ctx context.Context, bin string) *PendingProbe {
	// The turn may end first: WaitProbes bounds the probe then.
	return &PendingProbe{ctx: context.WithoutCancel(ctx), bin: bin, done: make(chan struct{})}
}

// Start runs the probe in the background, once.
func (pp *PendingProbe) Start() {
	pp.once.Do(func() {
		pp.started.Store(true)
		background.Add(1)
		go func() {
			defer background.Done()
			defer close(pp.done)
			pp.probe, pp.err = probeBinary(pp.ctx, pp.bin, true)
		}()
	})
}

// background counts the probes started in the background.
var background sync.WaitGroup

// WaitProbes waits, at most for limit, for the probes still running in
// the background, so that their answers are cached for the next run (which
// then needs no guess); it reports whether they all finished. yume-cli
// calls it as it exits, once its turn's output is all written.
func WaitProbes(limit time.Duration) bool {
	done := make(chan struct{})
	go func() {
		background.Wait()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(limit):
		return false
	}
}

// Started reports whether the probe was started.
func (pp *PendingProbe) Started() bool { return pp.started.Load() }

// Done is closed once the probe has its answer (never, if not started).
func (pp *PendingProbe) Done() <-chan struct{} { return pp.done }

// Wait starts the probe if it was not, and returns its answer once it has
// it, or ctx's error.
func (pp *PendingProbe) Wait(ctx context.Context) (Probe, error) {
	pp.Start()
	select {
	case <-pp.done:
		return pp.probe, pp.err
	case <-ctx.Done():
		return Probe{}, ctx.Err()
	}
}

// DetectVersion is ProbeBinary's version: the first x.y.z of `bin --version`.
func DetectVersion(ctx context.Context, bin string) (string, error) {
	p, err := ProbeBinary(ctx, bin)
	return p.Version, err
}

func runProbe(ctx context.Context, path string, background bool) (Probe, error) {
	out, err := probeRun(ctx, path, "--version", background)
	v := versionRE.FindString(out)
	if v == "" {
		if err != nil {
			return Probe{}, fmt.Errorf("%s --version failed (%w)%s", path, err, complaint(err, out))
		}
		return Probe{}, fmt.Errorf("%s --version printed no version number: %q", path, strings.TrimSpace(out))
	}
	// Best effort: no help means no detected flags. But a help cut short
	// (the turn ended, or it outran probeTimeout on a loaded machine) may
	// lack them: not to be cached, or every later start would lack them.
	help, herr := probeRun(ctx, path, "--help", background)
	if err := ctx.Err(); err != nil {
		return Probe{}, err
	}
	if errors.Is(herr, context.DeadlineExceeded) {
		return Probe{}, herr
	}
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

func probeRun(ctx context.Context, path, flag string, background bool) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, flag)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "CI=1", "COLUMNS=200")
	cmd.WaitDelay = time.Second
	if !background {
		out, err := cmd.Output()
		return string(out), cutShort(ctx, path, flag, err)
	}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := startIdle(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	if exit, ok := err.(*exec.ExitError); ok {
		exit.Stderr = stderr.Bytes() // as Output keeps it: complaint quotes it
	}
	return out.String(), cutShort(ctx, path, flag, err)
}

// cutShort is err, or that the run outran probeTimeout (ctx's deadline):
// what it printed may be a part only.
func cutShort(ctx context.Context, path, flag string, err error) error {
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%s %s took over %v (%v): %w", path, flag, probeTimeout, err, context.DeadlineExceeded)
	}
	return err
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

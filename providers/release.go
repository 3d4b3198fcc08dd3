package providers

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// Release is what yume-cli knows of one release of a provider's program
// without running it: the part of its --help that TUI.Args and the modes'
// Command read (as KnownHelp is for the newest verified release).
type Release struct {
	Version string
	Help    string
}

// sortedReleases sorts rs oldest first.
func sortedReleases(rs []Release) []Release {
	slices.SortFunc(rs, func(a, b Release) int { return CompareVersions(a.Version, b.Version) })
	return rs
}

// releases are p's known releases, oldest first: Releases, then the newest
// verified one with KnownHelp.
func (p *Provider) releases() []Release {
	rs := slices.Clone(p.Releases)
	if p.KnownHelp != "" && p.Verified[1] != "" {
		rs = append(rs, Release{Version: p.Verified[1], Help: p.KnownHelp})
	}
	return sortedReleases(rs)
}

// nearestRelease is, of rs (oldest first), version's own entry (exact), else
// the newest one older than version (a release rarely drops a flag its
// predecessor had, and yume-cli reads what they offer), else the oldest.
func nearestRelease(rs []Release, version string) (r Release, exact bool) {
	if len(rs) == 0 {
		return Release{}, false
	}
	r = rs[0]
	for _, c := range rs {
		switch CompareVersions(c.Version, version) {
		case 0:
			return c, true
		case -1:
			r = c
		}
	}
	return r, false
}

// PackageVersion is the release of the npm package that holds the program
// at path (after its links): the "version" of the package.json of the
// package whose directory the program lies in, when that package is one of
// names (or one's platform build, "NAME-linux-x64"); else "" and "". No
// process runs: a Node CLI's own --version costs a second or more; this
// reads one small file.
func PackageVersion(path string, names []string) (name, version string) {
	name, version = packageOf(path)
	for _, n := range names {
		if rest, ok := strings.CutPrefix(name, n); ok && (rest == "" || platformBuild.MatchString(rest)) {
			return name, version
		}
	}
	return "", ""
}

// platformBuild is the tail of a package's platform build's name, as the
// native CLIs publish them ("@anthropic-ai/claude-code-linux-x64").
var platformBuild = lazyre.New(`^-(?:linux|darwin|win32|windows|freebsd)(?:-[a-z0-9]+)*$`)

// InstalledRelease is the release of p's program bin read from its
// package (PackageVersion, and the newer ones it runs instead: Updated),
// "" when it cannot be.
func InstalledRelease(bin string, p *Provider) string {
	path, err := exec.LookPath(bin)
	if err != nil {
		return ""
	}
	_, v := p.installed(path)
	return v
}

// installed is the package and release of p's program at path: its
// package's, or a newer one it has fetched itself and runs instead.
func (p *Provider) installed(path string) (pkg, version string) {
	pkg, version = PackageVersion(path, p.Packages)
	if version == "" || p.Updated == nil {
		return pkg, version
	}
	for _, dir := range p.Updated(os.Getenv) {
		ents, _ := os.ReadDir(dir) // none: it fetched nothing
		for _, e := range ents {
			if v := e.Name(); e.IsDir() && versionRE.FindString(v) == v && CompareVersions(v, version) > 0 {
				version = v
			}
		}
	}
	return pkg, version
}

// ProbeFor is ProbeBinary for p's program bin, without running it where
// KnownProbe knows its release exactly (listed, or probed before): a
// structured mode's first run on a listed release waits for no probe.
func ProbeFor(ctx context.Context, bin string, p *Provider) (Probe, error) {
	if probe, exact, err := KnownProbe(bin, p); err == nil && exact && probe.Version != "" {
		return probe, nil
	}
	return ProbeBinary(ctx, bin)
}

// DetectVersionFor is DetectVersion for p's program bin: its release read
// from its package where it can be, else from `bin --version`.
func DetectVersionFor(ctx context.Context, bin string, p *Provider) (string, error) {
	if v := InstalledRelease(bin, p); v != "" {
		return v, nil
	}
	return DetectVersion(ctx, bin)
}

// packageOf is the name and version of the npm package whose directory
// holds the program at path: the package.json of the directory just below
// node_modules (or node_modules/@scope) on the way up from the program. A
// program outside node_modules has none: a package.json elsewhere (a
// project's) says nothing of it.
func packageOf(path string) (name, version string) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", ""
	}
	for dir := filepath.Dir(real); ; {
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ""
		}
		up := filepath.Base(parent)
		if up == "node_modules" || strings.HasPrefix(up, "@") && filepath.Base(filepath.Dir(parent)) == "node_modules" {
			return readPackage(filepath.Join(dir, "package.json"))
		}
		dir = parent
	}
}

// readPackage reads a package.json's name and version ("" if unreadable or
// the version is no x.y.z).
func readPackage(file string) (name, version string) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", ""
	}
	var pkg struct{ Name, Version string }
	if json.Unmarshal(b, &pkg) != nil || versionRE.FindString(pkg.Version) != pkg.Version {
		return "", ""
	}
	return pkg.Name, pkg.Version
}

// releaseKey is the probe cache's key for what was learned of a release
// whatever its path: another install of it, or this one again after the
// path's entry went, needs no probe.
func releaseKey(pkg, version string) string { return "release:" + pkg + "@" + version }

// keptReleases bounds the learned releases kept per package: an update
// replaces one; a few cover switching between installs.
const keptReleases = 4

// rememberRelease stores p, learned of pkg's release, in cache, keeping the
// newest keptReleases of pkg's.
func rememberRelease(cache map[string]Probe, pkg string, p Probe) {
	cache[releaseKey(pkg, p.Version)] = p
	prefix := releaseKey(pkg, "")
	var vs []string
	for k := range cache {
		if v, ok := strings.CutPrefix(k, prefix); ok {
			vs = append(vs, v)
		}
	}
	slices.SortFunc(vs, func(a, b string) int { return CompareVersions(b, a) })
	for _, v := range vs[min(len(vs), keptReleases):] {
		delete(cache, releaseKey(pkg, v))
	}
}

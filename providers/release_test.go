package providers

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/permission"
)

// TestReleases: each release a provider lists (and the newest verified)
// makes the same command lines, TUI and structured, in every mode, from
// its listed flags as from its whole --help (testdata): a first run of it
// starts right.
func TestReleases(t *testing.T) {
	for _, p := range All() {
		for _, r := range p.releases() {
			full := readHelp(t, p.Name+"-"+r.Version)
			for _, m := range p.Structured {
				for _, auto := range []bool{false, true} {
					for _, resume := range []string{"", goodID} {
						q := Request{Prompt: "hi", Model: "m", Auto: auto, Resume: resume, Help: full}
						want := withoutSession(m.Command(q))
						q.Help = r.Help
						if got := withoutSession(m.Command(q)); !slices.Equal(got, want) {
							t.Errorf("%s %s %s auto=%v resume=%q: its listed flags give %q, its --help %q", p.Name, r.Version, m.Name, auto, resume, got, want)
						}
					}
				}
			}
			if p.TUI == nil {
				continue
			}
			for _, mode := range []permission.Mode{permission.Default, permission.Auto} {
				for _, resume := range []bool{false, true} {
					l := Launch{Prompt: "hi", Model: "m", Mode: mode, Session: goodID, Resume: resume}
					l.Help = full
					want, werr := p.TUI.Args(l)
					l.Help = r.Help
					got, gerr := p.TUI.Args(l)
					if !slices.Equal(got, want) || (gerr == nil) != (werr == nil) {
						t.Errorf("%s %s TUI %s resume=%v: its listed flags give %q (%v), its --help %q (%v)", p.Name, r.Version, mode, resume, got, gerr, want, werr)
					}
				}
			}
		}
	}
}

// TestNearestRelease: a listed release is its own; another takes the
// nearest older one's flags, or the oldest's when older than all.
func TestNearestRelease(t *testing.T) {
	rs := []Release{{"1.0.0", "a"}, {"1.2.0", "b"}, {"2.0.0", "c"}}
	for _, c := range []struct {
		version, help string
		exact         bool
	}{
		{"1.2.0", "b", true},
		{"1.1.9", "a", false},
		{"1.10.0", "b", false},
		{"0.9.0", "a", false},
		{"3.0.0", "c", false},
		{"2.0.0", "c", true},
	} {
		if r, exact := nearestRelease(rs, c.version); r.Help != c.help || exact != c.exact {
			t.Errorf("nearestRelease(%s) = %q exact=%v; want %q exact=%v", c.version, r.Help, exact, c.help, c.exact)
		}
	}
}

// installPackage lays out an npm install of pkg@version under root, its
// program at prog inside the package, linked from root/bin/name as npm
// links bins; it returns the link.
func installPackage(t *testing.T, root, pkg, version, prog, name string) string {
	t.Helper()
	dir := filepath.Join(root, "node_modules", filepath.FromSlash(pkg))
	file := filepath.Join(dir, filepath.FromSlash(prog))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho 'should not run'; exit 3\n"
	if err := os.WriteFile(file, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := `{"name": "` + pkg + `", "version": "` + version + `", "bin": {"x": "y"}}`
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "bin", name)
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// TestPackageVersion: the release comes from the package.json of the
// package that holds the program, through its links, for the provider's
// package or its platform build; not from another package's or a
// project's package.json.
func TestPackageVersion(t *testing.T) {
	names := []string{"@scope/cli"}
	for _, c := range []struct {
		name, pkg, prog, want string
	}{
		{"scoped, a script in bin/", "@scope/cli", "bin/cli.js", "1.2.3"},
		{"platform build", "@scope/cli-linux-x64", "cli", "1.2.3"},
		{"another package", "@scope/cli-router", "bin/cli.js", ""},
		{"another scope", "@other/cli", "bin/cli.js", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			link := installPackage(t, t.TempDir(), c.pkg, "1.2.3", c.prog, "cli")
			if _, v := PackageVersion(link, names); v != c.want {
				t.Errorf("PackageVersion = %q; want %q", v, c.want)
			}
		})
	}
	t.Run("outside node_modules", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"@scope/cli","version":"9.9.9"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		prog := filepath.Join(dir, "bin", "cli")
		if err := os.MkdirAll(filepath.Dir(prog), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, v := PackageVersion(prog, names); v != "" {
			t.Errorf("PackageVersion of a program in a project = %q; want none", v)
		}
	})
}

// TestKnownProbeReleases: a listed release installed from its package is
// known exactly without running it (the program here fails if run); an
// unlisted one is guessed from the nearest older listed release; what a
// probe learned of a release is known at another path of it.
func TestKnownProbeReleases(t *testing.T) {
	t.Setenv("YUME_HOME", t.TempDir())
	p := &Provider{Name: "x", Packages: []string{"@scope/cli"}, Verified: [2]string{"1.0.0", "2.0.0"}, KnownHelp: "  --new",
		Releases: []Release{{"1.0.0", "  --old"}}}
	for _, c := range []struct {
		version, help string
		exact         bool
	}{
		{"1.0.0", "  --old", true},
		{"2.0.0", "  --new", true},
		{"1.5.0", "  --old", false},
		{"2.1.0", "  --new", false},
	} {
		link := installPackage(t, t.TempDir(), "@scope/cli", c.version, "bin/cli.js", "cli")
		got, exact, err := KnownProbe(link, p)
		if err != nil || got.Help != c.help || got.Version != c.version || exact != c.exact {
			t.Errorf("%s: KnownProbe = %+v exact=%v err=%v; want help %q exact=%v", c.version, got, exact, err, c.help, c.exact)
		}
		// The program fails if run: a listed release is never asked.
		if v, err := DetectVersionFor(context.Background(), link, p); v != c.version || err != nil {
			t.Errorf("%s: DetectVersionFor = %q, %v", c.version, v, err)
		}
		if got, err := ProbeFor(context.Background(), link, p); c.exact && (err != nil || got.Help != c.help) {
			t.Errorf("%s: ProbeFor = %+v, %v; want the listed flags, not a run", c.version, got, err)
		} else if !c.exact && err == nil {
			t.Errorf("%s: ProbeFor of an unlisted release = %+v; want it run (and fail here)", c.version, got)
		}
	}

	// A probe of an unlisted release at one path is what another path of
	// the same release starts with.
	root := t.TempDir()
	link := installPackage(t, root, "@scope/cli", "2.1.0", "bin/cli.js", "cli")
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 2.1.0; else echo '  --learned'; fi\n"
	if err := os.WriteFile(filepath.Join(root, "node_modules", "@scope", "cli", "bin", "cli.js"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ProbeLater(context.Background(), link).Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	other := installPackage(t, t.TempDir(), "@scope/cli", "2.1.0", "bin/cli.js", "cli")
	if got, exact, err := KnownProbe(other, p); err != nil || !exact || !strings.Contains(got.Help, "--learned") {
		t.Errorf("another install of a release probed: %+v exact=%v err=%v; want what was learned, exact", got, exact, err)
	}
}

// TestRememberRelease keeps the newest releases learned of a package.
func TestRememberRelease(t *testing.T) {
	cache := map[string]Probe{"/bin/x|1|2": {Version: "0.1.0"}}
	for _, v := range []string{"1.0.0", "1.10.0", "1.2.0", "0.9.0", "1.3.0", "1.1.0"} {
		rememberRelease(cache, "@scope/cli", Probe{Version: v})
	}
	var kept []string
	for k := range cache {
		if v, ok := strings.CutPrefix(k, releaseKey("@scope/cli", "")); ok {
			kept = append(kept, v)
		}
	}
	slices.Sort(kept)
	if want := []string{"1.1.0", "1.10.0", "1.2.0", "1.3.0"}; !slices.Equal(kept, want) {
		t.Errorf("kept %q; want %q", kept, want)
	}
	if _, ok := cache["/bin/x|1|2"]; !ok {
		t.Error("a path's entry went")
	}
}

// TestUpdatedRelease: a program that runs the newest release it fetched
// itself (Copilot CLI's cache) is that release, not its package's; an
// older one there changes nothing; a probe cached of the release it ran
// before is not taken for the one it runs now.
func TestUpdatedRelease(t *testing.T) {
	t.Setenv("YUME_HOME", t.TempDir())
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	p := &Provider{Name: "x", Packages: []string{"@github/copilot"}, Verified: [2]string{"1.0.87", "1.0.102"}, KnownHelp: "  --new",
		Releases: []Release{{"1.0.87", "  --old"}}, Updated: copilotUpdated}
	root := t.TempDir()
	link := installPackage(t, root, "@github/copilot", "1.0.87", "npm-loader.js", "copilot")
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 1.0.87; else echo '  --probed'; fi\n"
	if err := os.WriteFile(filepath.Join(root, "node_modules", "@github", "copilot", "npm-loader.js"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ProbeBinary(context.Background(), link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fetched, version, help string
	}{
		{"", "1.0.87", "  --probed"},
		{"1.0.80", "1.0.87", "  --probed"},
		{"1.0.102", "1.0.102", "  --new"},
	} {
		if c.fetched != "" {
			if err := os.MkdirAll(filepath.Join(cache, "copilot", "pkg", "linux-x64", c.fetched), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		probeMu.Lock()
		clear(probeMem) // a new process
		probeMu.Unlock()
		if v := InstalledRelease(link, p); v != c.version {
			t.Errorf("fetched %q: InstalledRelease = %q; want %q", c.fetched, v, c.version)
		}
		if got, exact, err := KnownProbe(link, p); err != nil || !exact || strings.TrimSpace(got.Help) != strings.TrimSpace(c.help) {
			t.Errorf("fetched %q: KnownProbe = %+v exact=%v err=%v; want help %q, exact", c.fetched, got, exact, err, c.help)
		}
	}
}

// TestProbeCutShortNotCached: a --help that outruns the probe's time (a
// loaded machine) is not cached as the program's help: it may lack the
// flags, and every later start would then lack them too.
func TestProbeCutShortNotCached(t *testing.T) {
	t.Setenv("YUME_HOME", t.TempDir())
	saved := probeTimeout
	t.Cleanup(func() { probeTimeout = saved })
	bin := filepath.Join(t.TempDir(), "slow")
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 1.0.0; exit; fi\necho '  --partial'\nexec sleep 30\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, background := range []bool{false, true} {
		probeTimeout = 300 * time.Millisecond
		if p, err := probeBinary(context.Background(), bin, background); err == nil {
			t.Errorf("background=%v: a --help cut short gave %+v, no error", background, p)
		}
		if _, ok := loadProbeCache()[mustKey(t, bin)]; ok {
			t.Errorf("background=%v: a --help cut short was cached", background)
		}
	}
}

func mustKey(t *testing.T, bin string) string {
	t.Helper()
	_, key, err := probeKey(bin)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/permission"
	prov "github.com/yume-cli/yume-cli/providers"
)

// TestLiveKnownHelp: a first run starts a TUI at once, with no probe,
// with the flags yume-cli knows of its release (read from its package:
// Provider.Releases, KnownHelp), or guessed from the nearest known one
// while the real --help is read in the background. For the releases
// installed here (the newest and the oldest of the drift matrix, both
// listed), the release must be read, known exactly, and start the program
// exactly as its own --help would: the same arguments, environment and
// mode, in every mode and for a new and a resumed session. (The guess
// once lacked Claude Code's --debug-file, so a first run lost the status
// of every retried error: a 429 went out as a plain error, not
// rate_limit; and Claude Code 2.1.197 was started twice on a first run,
// on the newest's "manual".)
func TestLiveKnownHelp(t *testing.T) {
	t.Setenv("YUME_HOME", t.TempDir()) // the probe's cache: this test's own
	oldest, err := filepath.Abs(filepath.Join(binDir(t), "..", "oldest", "bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range prov.All() {
		if p.KnownHelp == "" || p.TUI == nil {
			continue
		}
		for _, release := range []struct{ name, bin string }{{"newest", binDir(t)}, {"oldest", oldest}} {
			t.Run(p.Name+"/"+release.name, func(t *testing.T) {
				bin := filepath.Join(release.bin, p.Name)
				if _, err := os.Stat(bin); err != nil {
					t.Skipf("no %s %s in %s: run make e2e-deps", release.name, p.Name, release.bin)
				}
				knownRelease(t, p, bin)
			})
		}
	}
}

// knownRelease checks what yume-cli knows of bin's release, unprobed,
// against its own --help.
func knownRelease(t *testing.T, p *prov.Provider, bin string) {
	first, exact, err := prov.KnownProbe(bin, p)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	real, err := prov.ProbeBinary(ctx, bin)
	if err != nil {
		t.Fatalf("probe %s: %v", bin, err)
	}
	t.Logf("%s %s (from its package: %s)", p.Name, real.Version, first.Version)
	if len(p.Packages) > 0 && (first.Version != real.Version || !exact) {
		t.Errorf("%s %s: read from its package as %q, exact=%v; want its own release, known", p.Name, real.Version, first.Version, exact)
	}
	started := time.Now()
	for _, mode := range permission.Modes {
		for _, resume := range []bool{false, true} {
			l := prov.Launch{Prompt: "make the file", Model: "a-model", Mode: mode, Resume: resume,
				Cwd: t.TempDir(), Getenv: os.Getenv, Started: started, Bin: bin}
			if p.TUI.NewSession != nil {
				l.Session = p.TUI.NewSession()
			}
			guess, known := l, l
			guess.Help, known.Help = first.Help, real.Help
			what := func(l prov.Launch) (args, env []string, name string, err error) {
				args, err = p.TUI.Args(l)
				if p.TUI.Env != nil {
					env = p.TUI.Env(l)
				}
				if p.TUI.ModeName != nil {
					name = p.TUI.ModeName(l)
				}
				return
			}
			ga, ge, gn, gerr := what(guess)
			ka, ke, kn, kerr := what(known)
			// What a second launch with the same help makes otherwise is
			// chosen per launch (opencode's server port and password):
			// not compared.
			ka2, ke2, _, _ := what(known)
			ga, ka = perLaunch(ga, ka, ka2), perLaunch(ka, ka, ka2)
			ge, ke = perLaunch(ge, ke, ke2), perLaunch(ke, ke, ke2)
			if (gerr == nil) != (kerr == nil) || !slices.Equal(ga, ka) || !slices.Equal(ge, ke) || gn != kn {
				t.Errorf("mode %s, resume %v: started unprobed, %s would get\n args %q env %q mode %q err %v\nwhere its own --help gives\n args %q env %q mode %q err %v",
					mode, resume, p.Name, ga, ge, gn, gerr, ka, ke, kn, kerr)
			}
		}
	}
}

// perLaunch is x with each value that two launches with the same help
// (a, b) made differently replaced by a mark: a value chosen per launch.
func perLaunch(x, a, b []string) []string {
	if len(a) != len(b) || len(x) != len(a) {
		return x
	}
	out := slices.Clone(x)
	for i := range a {
		if a[i] != b[i] {
			k, _, found := strings.Cut(a[i], "=")
			if found && strings.HasPrefix(b[i], k+"=") {
				out[i] = k + "=<per launch>"
			} else {
				out[i] = "<per launch>"
			}
		}
	}
	return out
}

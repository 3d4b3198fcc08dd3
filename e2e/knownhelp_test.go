package e2e

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/permission"
	prov "github.com/yume-cli/yume-cli/providers"
)

// TestLiveKnownHelp: a first run starts a TUI at once with the flags of
// Provider.KnownHelp while the real --help is read in the background. For
// the release installed here (the newest verified), that guess must start
// the program exactly as its own --help would: the same arguments,
// environment and mode, in every mode and for a new and a resumed
// session. (The guess once lacked Claude Code's --debug-file, so a first
// run lost the status of every retried error: a 429 went out as a plain
// error, not rate_limit.)
func TestLiveKnownHelp(t *testing.T) {
	t.Setenv("YUME_HOME", t.TempDir()) // the probe's cache: this test's own
	for _, p := range prov.All() {
		if p.KnownHelp == "" || p.TUI == nil {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			bin := cliPath(t, p.Name)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			real, err := prov.ProbeBinary(ctx, bin)
			if err != nil {
				t.Fatalf("probe %s: %v", bin, err)
			}
			t.Logf("%s %s", p.Name, real.Version)
			started := time.Now()
			for _, mode := range permission.Modes {
				for _, resume := range []bool{false, true} {
					l := prov.Launch{Prompt: "make the file", Model: "a-model", Mode: mode, Resume: resume,
						Cwd: t.TempDir(), Getenv: os.Getenv, Started: started, Bin: bin}
					if p.TUI.NewSession != nil {
						l.Session = p.TUI.NewSession()
					}
					guess, known := l, l
					guess.Help, known.Help = p.KnownHelp, real.Help
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
					if (gerr == nil) != (kerr == nil) || !slices.Equal(ga, ka) || !slices.Equal(ge, ke) || gn != kn {
						t.Errorf("mode %s, resume %v: started from KnownHelp, %s would get\n args %q env %q mode %q err %v\nwhere its own --help gives\n args %q env %q mode %q err %v",
							mode, resume, p.Name, ga, ge, gn, gerr, ka, ke, kn, kerr)
					}
				}
			}
		})
	}
}

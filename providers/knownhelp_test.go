package providers

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/permission"
)

// TestKnownHelp: what a first run assumes of a provider's flags
// (KnownHelp) makes the same command lines, TUI and structured, in every
// mode, as the whole --help of its newest verified release.
func TestKnownHelp(t *testing.T) {
	for _, p := range All() {
		if p.KnownHelp == "" {
			continue
		}
		full := readHelp(t, p.Name+"-"+p.Verified[1])
		if p.TUI != nil {
			for _, mode := range []permission.Mode{permission.Default, permission.Auto} {
				for _, resume := range []bool{false, true} {
					l := Launch{Prompt: "hi", Model: "m", Mode: mode, Session: goodID, Resume: resume}
					l.Help = full
					want, werr := p.TUI.Args(l)
					l.Help = p.KnownHelp
					got, gerr := p.TUI.Args(l)
					if !slices.Equal(got, want) || (gerr == nil) != (werr == nil) {
						t.Errorf("%s TUI %s resume=%v: known help gives %q (%v), its --help %q (%v)", p.Name, mode, resume, got, gerr, want, werr)
					}
				}
			}
		}
		for _, m := range p.Structured {
			for _, auto := range []bool{false, true} {
				for _, resume := range []string{"", goodID} {
					r := Request{Prompt: "hi", Model: "m", Auto: auto, Resume: resume}
					r.Help = full
					want := m.Command(r)
					r.Help = p.KnownHelp
					got := m.Command(r)
					if g, w := withoutSession(got), withoutSession(want); !slices.Equal(g, w) {
						t.Errorf("%s %s auto=%v resume=%q: known help gives %q, its --help %q", p.Name, m.Name, auto, resume, g, w)
					}
				}
			}
		}
	}
}

// withoutSession is inv's arguments with a session id it made up replaced.
func withoutSession(inv Invocation) []string {
	out := slices.Clone(inv.Args)
	for i, a := range out {
		if inv.Session != "" && a == inv.Session {
			out[i] = "ID"
		}
	}
	return out
}

// TestKnownProbe: a binary probed before is known exactly; an update at
// the same path is guessed from the release before it; a path never
// probed is guessed from the provider's known help; probing the new
// release replaces the old one's entry.
func TestKnownProbe(t *testing.T) {
	t.Setenv("YUME_HOME", t.TempDir())
	dir := t.TempDir()
	bin := filepath.Join(dir, "cli")
	write := func(version, help string) {
		script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo '" + version + "'; else echo '" + help + "'; fi\n"
		if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	known := &Provider{KnownHelp: "  --known"}
	write("1.0.0", "  --old-flag")
	if p, exact, err := KnownProbe(bin, known); err != nil || exact || p.Help != "  --known" || p.Version != "" {
		t.Fatalf("never probed: %+v exact=%v err=%v; want the known help, not exact", p, exact, err)
	}
	pp := ProbeLater(context.Background(), bin)
	if p, err := pp.Wait(context.Background()); err != nil || p.Version != "1.0.0" || !strings.Contains(p.Help, "--old-flag") {
		t.Fatalf("ProbeLater = %+v, %v", p, err)
	}
	if p, exact, err := KnownProbe(bin, known); err != nil || !exact || p.Version != "1.0.0" {
		t.Fatalf("probed: %+v exact=%v err=%v; want its own answers", p, exact, err)
	}
	write("1.1.0", "  --new-flag and more") // an update: another size
	if p, exact, err := KnownProbe(bin, known); err != nil || exact || p.Version != "1.0.0" || !strings.Contains(p.Help, "--old-flag") {
		t.Fatalf("updated: %+v exact=%v err=%v; want the release before, not exact", p, exact, err)
	}
	if p, err := ProbeBinary(context.Background(), bin); err != nil || p.Version != "1.1.0" {
		t.Fatalf("ProbeBinary after the update = %+v, %v", p, err)
	}
	n := 0
	for k := range loadProbeCache() {
		if strings.HasPrefix(k, bin+"|") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the cache holds %d entries for %s; want the newest release's only", n, bin)
	}
	if _, _, err := KnownProbe(filepath.Join(dir, "missing"), known); err == nil {
		t.Error("KnownProbe of a missing program succeeded")
	}
}

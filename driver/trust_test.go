//go:build unix

package driver_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

// TestDriveTrustQuestion: an agent's "trust this folder?" before its first
// prompt is no call: the GUI is asked it as a question; with nobody to ask
// (no channel) no guard trusts a folder for a person, and the turn ends
// saying what the program asks and how to answer it; the settings file's
// trust_folders answers it yes or no.
func TestDriveTrustQuestion(t *testing.T) {
	prof, err := heuristics.LoadProfile("generic")
	if err != nil {
		t.Fatal(err)
	}
	argv := keytuiArgv("-layout", "custom", "-options", "Yes, proceed|No, exit", "-cmd", "printf hi > trusted.txt",
		"-above", "  Security Warning\n\n  Do you trust the files in this folder?\n  /some/ws\n", "-pointer", "❯ ")
	for _, c := range []struct {
		name    string
		trust   string
		decide  decision
		trusted bool
		want    string // in the stream
	}{
		{"asked", "", approveAll, true, `"name":"AskUserQuestion"`},
		{"nobody to ask", "", nil, false, "nobody can answer here (no approval channel). Trust it in the program itself once, or set trust_folders: yes"},
		{"settings yes", "yes", nil, true, `"approved_by":"settings.yaml trust_folders: yes"`},
		{"settings no", "no", approveAll, false, "Not trusted: settings.yaml trust_folders says no."},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			r := driveWith(t, dir, prof, permission.Default, c.decide, nil, nil, func(cfg *driver.Config) {
				cfg.TrustFolders = c.trust
				cfg.TurnTimeout = 4 * time.Second // keytui idles once answered, a still screen with a GUI that may answer
			}, argv...)
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := exists(filepath.Join(dir, "trusted.txt")); got != c.trusted {
				t.Errorf("trusted = %v, want %v", got, c.trusted)
			}
			if !strings.Contains(string(r.raw), c.want) {
				t.Errorf("stream lacks %q:\n%s", c.want, r.raw)
			}
			for _, u := range r.uses {
				if u.Name == "Bash" {
					t.Errorf("the trust question went out as a call: %+v", u)
				}
			}
		})
	}
}

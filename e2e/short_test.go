package e2e

import (
	"slices"
	"testing"
)

// CI's live suite is the short one (make e2e: go test -short): a table of
// CLIs × cases runs each case once, on one CLI, the CLIs taking turns
// (case c on CLI c mod CLIs, and CLI i runs case i mod cases), so every
// CLI and every case still runs, in a fraction of the time; make e2e-full
// runs every cell. A case only one CLI has is not in a table: it runs.

// cell skips, in the short suite, case c (of cases) of CLI cli (of clis)
// unless it is that cell's turn.
func cell(t *testing.T, cli, clis, c, cases int) {
	t.Helper()
	if testing.Short() && c%clis != cli && cli%cases != c {
		t.Skip("the short suite runs this case on another CLI (make e2e-full runs every cell)")
	}
}

// The short suite leaves Kilo out of the tables of structured modes,
// usage and model errors. Kilo is opencode's fork: yume-cli reads both
// with one code path (providers/opencode*.go, the variables' prefix
// aside), and a Kilo start costs twice opencode's CPU (`kilo run hi`
// against the fake model: 22 s of CPU, opencode 10 s; the live suite is
// CPU-bound). opencode carries those cases; the short suite keeps Kilo's
// own: its TUI (TestLiveAgentsTUI), its start as Yume starts it
// (TestLiveAsYume ordinary and guarded), a first ACP run in a bare home
// (TestLiveACPAgentsBare), a failed start and its --help. make e2e-full
// runs every cell.
const familyTwin = "kilo"

// twinSkip skips cli's case in the short suite when cli is the twin.
func twinSkip(t *testing.T, cli string) {
	t.Helper()
	if testing.Short() && cli == familyTwin {
		t.Skip("the short suite runs this case on opencode, whose fork Kilo is (make e2e-full runs Kilo too)")
	}
}

// cellOf is cell with cli's place among clis as the short suite takes
// turns over them: without the twin, whose cases it skips.
func cellOf(t *testing.T, cli string, clis []string, c, cases int) {
	t.Helper()
	twinSkip(t, cli)
	if testing.Short() {
		clis = slices.DeleteFunc(slices.Clone(clis), func(c string) bool { return c == familyTwin })
	}
	cell(t, slices.Index(clis, cli), len(clis), c, cases)
}

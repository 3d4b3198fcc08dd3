package e2e

import "testing"

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

package heuristics

import (
	"strings"

	"github.com/yume-cli/yume-cli/internal/fileerr"
)

// RulesError collects every problem found in one rules file, so a user fixes
// them all in one pass instead of one per run.
type RulesError = fileerr.Error

// Problem is one mistake in a rules file, located for a caret display.
type Problem = fileerr.Problem

// problems accumulates Problems against the lines of one source file.
type problems struct{ *fileerr.List }

func newProblems(data []byte) *problems { return &problems{fileerr.New(data)} }

// add records a problem at 1-based line and byte column.
func (ps *problems) add(line, col, n int, format string, args ...any) {
	ps.Add(line, col, n, format, args...)
}

// locate finds token in the source at or after (line, col), looking a few
// lines on for block scalars, so a caret can sit under the bad part of a
// value rather than under its start. It falls back to (line, col).
func (ps *problems) locate(line, col int, token string) (int, int) {
	if token == "" {
		return line, col
	}
	for l := line; l >= 1 && l <= len(ps.Lines) && l < line+50; l++ {
		text := ps.Lines[l-1]
		from := 0
		if l == line {
			from = min(max(col-1, 0), len(text))
		}
		if i := strings.Index(text[from:], token); i >= 0 {
			return l, from + i + 1
		}
	}
	return line, col
}

// err returns the collected problems as a *RulesError, or nil.
func (ps *problems) err(file string) error { return ps.Err(file) }

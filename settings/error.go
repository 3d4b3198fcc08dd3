package settings

import (
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/internal/fileerr"
)

// Error is every problem found in one settings file, so a user fixes
// them all in one pass.
type Error = fileerr.Error

// Problem is one mistake, located for a caret display.
type Problem = fileerr.Problem

// problems collects Problems against the lines of one file.
type problems struct{ *fileerr.List }

func newProblems(data []byte) *problems { return &problems{fileerr.New(data)} }

// add records a problem at 1-based line and byte column.
func (ps *problems) add(line, col, n int, format string, args ...any) {
	ps.Add(line, col, n, format, args...)
}

// yamlError records a YAML syntax error ("yaml: line 3: …") at its line.
func (ps *problems) yamlError(err error) {
	line, msg := 0, strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, tail, ok := strings.Cut(rest, ": "); ok {
			if l, err := strconv.Atoi(n); err == nil {
				line, msg = l, tail
			}
		}
	}
	ps.add(line, 1, 1, "not valid YAML: %s", msg)
}

// err returns the problems in file order as an *Error, or nil.
func (ps *problems) err(file string) error { return ps.Err(file) }

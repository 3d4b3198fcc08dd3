package heuristics

import (
	"fmt"
	"sort"
	"strings"

	"github.com/clipperhouse/displaywidth"
)

// RulesError collects every problem found in one rules file, so a user fixes
// them all in one pass instead of one per run.
type RulesError struct {
	File     string
	Problems []Problem
}

// Problem is one mistake in a rules file, located for a caret display.
type Problem struct {
	Line, Col int    // 1-based position of the bad token; Line 0 when unknown
	Len       int    // length of the bad token in columns (at least 1 is drawn)
	Msg       string // what is wrong and what to do
	Source    string // the source line, as written
}

// Error prints, per problem, "file:line:col: message", the source line and
// a caret line under the bad token.
func (e *RulesError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		if p.Line <= 0 {
			fmt.Fprintf(&b, "%s: %s", e.File, p.Msg)
			continue
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s\n", e.File, p.Line, p.Col, p.Msg)
		src := strings.ReplaceAll(p.Source, "\t", " ")
		fmt.Fprintf(&b, "    %s\n", src)
		b.WriteString("    ")
		b.WriteString(caret(src, p.Col, p.Len))
	}
	return b.String()
}

// caret draws "^~~~" under the token at 1-based byte column col of src;
// columns are counted in cells so wide characters before it line up.
func caret(src string, col, n int) string {
	if col < 1 {
		col = 1
	}
	if col-1 > len(src) {
		col = len(src) + 1
	}
	pad := displaywidth.String(src[:col-1])
	if n < 1 {
		n = 1
	}
	if end := col - 1 + n; end <= len(src) {
		n = max(1, displaywidth.String(src[col-1:end]))
	}
	return strings.Repeat(" ", pad) + "^" + strings.Repeat("~", n-1)
}

// problems accumulates Problems against the lines of one source file.
type problems struct {
	lines []string
	list  []Problem
}

func newProblems(data []byte) *problems {
	return &problems{lines: strings.Split(string(data), "\n")}
}

// add records a problem at 1-based line and byte column.
func (ps *problems) add(line, col, n int, format string, args ...any) {
	p := Problem{Line: line, Col: col, Len: n, Msg: fmt.Sprintf(format, args...)}
	if line >= 1 && line <= len(ps.lines) {
		p.Source = strings.TrimRight(ps.lines[line-1], "\r")
	}
	ps.list = append(ps.list, p)
}

// locate finds token in the source at or after (line, col), looking a few
// lines on for block scalars, so a caret can sit under the bad part of a
// value rather than under its start. It falls back to (line, col).
func (ps *problems) locate(line, col int, token string) (int, int) {
	if token == "" {
		return line, col
	}
	for l := line; l >= 1 && l <= len(ps.lines) && l < line+50; l++ {
		text := ps.lines[l-1]
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
func (ps *problems) err(file string) error {
	if len(ps.list) == 0 {
		return nil
	}
	sort.SliceStable(ps.list, func(i, j int) bool {
		a, b := ps.list[i], ps.list[j]
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return &RulesError{File: file, Problems: ps.list}
}

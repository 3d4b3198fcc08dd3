package settings

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/clipperhouse/displaywidth"
)

// Error is every problem found in one settings file, so a user fixes
// them all in one pass.
type Error struct {
	File     string
	Problems []Problem
}

// Problem is one mistake, located for a caret display.
type Problem struct {
	Line, Col int    // 1-based position of the bad token; Line 0 when unknown
	Len       int    // the bad token's length in bytes (at least 1 is drawn)
	Msg       string // what is wrong and what to write instead
	Source    string // the source line, as written
}

// Error prints, per problem, "file:line:col: message", the source line
// and a caret under the bad token.
func (e *Error) Error() string {
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
		fmt.Fprintf(&b, "    %s\n    %s", src, caret(src, p.Col, p.Len))
	}
	return b.String()
}

// caret draws "^~~~" under the token at 1-based byte column col of src,
// counting cells so wide characters before it line up.
func caret(src string, col, n int) string {
	col = min(max(col, 1), len(src)+1)
	pad := displaywidth.String(src[:col-1])
	n = max(n, 1)
	if end := col - 1 + n; end <= len(src) {
		n = max(1, displaywidth.String(src[col-1:end]))
	}
	return strings.Repeat(" ", pad) + "^" + strings.Repeat("~", n-1)
}

// problems collects Problems against the lines of one file.
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
func (ps *problems) err(file string) error {
	if len(ps.list) == 0 {
		return nil
	}
	sort.SliceStable(ps.list, func(i, j int) bool {
		a, b := ps.list[i], ps.list[j]
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return &Error{File: file, Problems: ps.list}
}

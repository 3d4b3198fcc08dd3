// Package fileerr reports every problem found in one file the user wrote
// (a rules profile, the settings file) at once, each as
// "file:line:col: message", the source line and a caret under the bad
// token, as charmbracelet/vhs does: one pass fixes them all.
package fileerr

import (
	"fmt"
	"sort"
	"strings"

	"github.com/clipperhouse/displaywidth"
)

// Problem is one mistake, located for a caret display.
type Problem struct {
	Line, Col int    // 1-based position of the bad token; Line 0 when unknown
	Len       int    // the bad token's length in bytes (at least 1 is drawn)
	Msg       string // what is wrong and what to write instead
	Source    string // the source line, as written
}

// List collects Problems against the lines of one file.
type List struct {
	Lines    []string
	Problems []Problem
}

// New starts a List for the file's content.
func New(data []byte) *List { return &List{Lines: strings.Split(string(data), "\n")} }

// Add records a problem at 1-based line and byte column.
func (l *List) Add(line, col, n int, format string, args ...any) {
	p := Problem{Line: line, Col: col, Len: n, Msg: fmt.Sprintf(format, args...)}
	if line >= 1 && line <= len(l.Lines) {
		p.Source = strings.TrimRight(l.Lines[line-1], "\r")
	}
	l.Problems = append(l.Problems, p)
}

// Error is every problem found in one file, so a user fixes them all in
// one pass.
type Error struct {
	File     string
	Problems []Problem
}

// Error prints, per problem, "file:line:col: message", the source line and
// a caret line under the bad token.
func (e *Error) Error() string { return Format(e.File, e.Problems) }

// Err is the problems in file order as an *Error, or nil when there are
// none.
func (l *List) Err(file string) error {
	if len(l.Problems) == 0 {
		return nil
	}
	return &Error{File: file, Problems: l.Sorted()}
}

// Sorted is the problems in file order (nil when there are none).
func (l *List) Sorted() []Problem {
	sort.SliceStable(l.Problems, func(i, j int) bool {
		a, b := l.Problems[i], l.Problems[j]
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return l.Problems
}

// Format prints each problem of file: "file:line:col: message", the
// source line and a caret under the bad token.
func Format(file string, problems []Problem) string {
	var b strings.Builder
	for i, p := range problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		if p.Line <= 0 {
			fmt.Fprintf(&b, "%s: %s", file, p.Msg)
			continue
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s\n", file, p.Line, p.Col, p.Msg)
		src := strings.ReplaceAll(p.Source, "\t", " ")
		fmt.Fprintf(&b, "    %s\n    %s", src, Caret(src, p.Col, p.Len))
	}
	return b.String()
}

// Caret draws "^~~~" under the token at 1-based byte column col of src,
// counting cells so wide characters before it line up.
func Caret(src string, col, n int) string {
	col = min(max(col, 1), len(src)+1)
	pad := displaywidth.String(src[:col-1])
	n = max(n, 1)
	if end := col - 1 + n; end <= len(src) {
		n = max(1, displaywidth.String(src[col-1:end]))
	}
	return strings.Repeat(" ", pad) + "^" + strings.Repeat("~", n-1)
}

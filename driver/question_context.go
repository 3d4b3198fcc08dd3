package driver

import (
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/heuristics"
)

// A question row alone rarely says enough ("Overwrite (y/n)?" under
// "demo_key already exists."; apt's package list above "Do you want to
// continue?"). With context_rows set, a question carries the block the
// program printed for it since the last answer, bounded.

// questionContext is the context of det: what was printed before its
// first row since the last answer.
func (d *driver) questionContext(det *heuristics.Detection) string {
	rows := visibleRows(det.Rows)
	if len(rows) == 0 {
		return ""
	}
	return d.rowsBefore(rows[0])
}

// rowsBefore is the text between the last answer (or the start) and row,
// at most ContextRows rows (20 when unset), blank edges cut.
func (d *driver) rowsBefore(row int) string {
	n := d.cfg.Profile.ContextRows
	if n <= 0 {
		n = 20
	}
	from := max(row-n, 0)
	if retired := d.screen.Retired(); d.t.answerMark > retired {
		from = max(from, int(d.t.answerMark-retired))
	}
	var lines []string
	for r := from; r < row; r++ {
		lines = append(lines, strings.TrimRight(d.screen.Line(r), " "))
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// commandIntro is a line that announces the command on the next line.
var commandIntro = lazyre.New(`(?i)\b(?:command|will run|to run|running|execute|suggestion)\b[^:\n]*:\s*$`)

// commandShown is the command a program shows it is about to run, in a
// question's context: a "$ cmd" line; the indented line under a heading
// ("The command to run:", "Suggested command:", a blank line between
// allowed); or the one line in a box drawn just above the question, or
// under such a heading. "" when none.
func commandShown(context string) string {
	lines := strings.Split(context, "\n")
	last := len(lines) - 1
	for last >= 0 && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	for i := last; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if c, ok := strings.CutPrefix(l, "$ "); ok && c != "" {
			return c
		}
		if l == "" {
			continue
		}
		if c, top, ok := boxAt(lines, i); ok {
			if i == last || introAbove(lines, top) {
				return c
			}
			i = top
			continue
		}
		if strings.HasPrefix(lines[i], " ") && introAbove(lines, i) {
			return l
		}
	}
	return ""
}

// introAbove reports whether the line above row i (one blank line
// allowed between) announces a command.
func introAbove(lines []string, i int) bool {
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		if strings.TrimSpace(lines[j]) == "" {
			continue
		}
		return commandIntro.MatchString(lines[j])
	}
	return false
}

// boxAt reads a box whose bottom edge is row i, with one line of text in
// it (a command drawn in a frame): the text, and the row of its top edge.
func boxAt(lines []string, i int) (text string, top int, ok bool) {
	if i < 2 || !boxEdge.MatchString(lines[i]) || !boxEdge.MatchString(lines[i-2]) {
		return "", 0, false
	}
	m := boxSide.FindStringSubmatch(lines[i-1])
	if m == nil || strings.TrimSpace(m[1]) == "" {
		return "", 0, false
	}
	return strings.TrimSpace(m[1]), i - 2, true
}

// A box's edges and its side walls, in the usual box-drawing characters
// (and +-| ASCII).
var (
	boxEdge = lazyre.New(`^\s*[╭┌╰└+][─━-]{2,}[╮┐╯┘+]\s*$`)
	boxSide = lazyre.New(`^\s*[│┃|] (.+?) *[│┃|]\s*$`)
)

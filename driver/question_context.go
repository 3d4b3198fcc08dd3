package driver

import (
	"regexp"
	"strings"

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
var commandIntro = regexp.MustCompile(`(?i)\b(?:command|will run|to run|running|execute|suggestion)\b[^:\n]*:\s*$`)

// commandShown is the command a program shows it is about to run, in a
// question's context: a "$ cmd" line, or the indented line under "The
// command to run:" (or "Command:", "Suggestion:" …). "" when none.
func commandShown(context string) string {
	lines := strings.Split(context, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if c, ok := strings.CutPrefix(l, "$ "); ok && c != "" {
			return c
		}
		if i > 0 && l != "" && strings.HasPrefix(lines[i], " ") && commandIntro.MatchString(lines[i-1]) {
			return l
		}
	}
	return ""
}

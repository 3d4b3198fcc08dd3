// Recognising menus: an arrow-key menu (a question, options under it, one
// marked) and a numbered menu (numbered items above the question).

package suggest

import (
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

type menuKind int

const (
	noMenu menuKind = iota
	arrowMenu
	numberedMenu
)

// markerRx is a highlighted menu option: "❯ Build", "> Build", "› Build".
var markerRx = lazyre.New(`^( *)([❯›▸▶►→>])( +)(\S.*)$`)

// findArrowMenu looks for an arrow-key menu near the cursor: a question
// row, option rows under it, one of them marked. It returns the question's
// row, the mark and the marked option.
func findArrowMenu(lines []string, crow int) (qrow int, marker, option string, ok bool) {
	last := max(crow, lastNonBlank(lines))
	for m := min(last, len(lines)-1); m >= 0 && m >= crow-15; m-- {
		sm := markerRx.FindStringSubmatch(lines[m])
		if sm == nil {
			continue
		}
		// Up from the marked row: option rows (indented), then the question.
		q := m - 1
		for q >= 0 && strings.HasPrefix(lines[q], " ") && strings.TrimSpace(lines[q]) != "" && !looksAsked(lines[q]) {
			q--
		}
		if q < 0 || !looksAsked(lines[q]) {
			return 0, "", "", false
		}
		options := m - q
		for r := m + 1; r < len(lines) && strings.HasPrefix(lines[r], " ") && strings.TrimSpace(lines[r]) != ""; r++ {
			options++
		}
		if options < 2 {
			return 0, "", "", false
		}
		return q, sm[2], sm[4], true
	}
	return 0, "", "", false
}

// looksAsked reports whether a row reads as a menu's question.
func looksAsked(row string) bool {
	t := strings.TrimSpace(row)
	return strings.HasPrefix(t, "? ") || strings.HasPrefix(t, "[?] ") ||
		strings.HasSuffix(t, "?") || strings.HasSuffix(t, ":") || strings.Contains(t, "(Use arrow keys)") ||
		strings.Contains(t, "[Use arrows")
}

var (
	itemRx = lazyre.New(`(?:^|\s)(\d+)[:.)] +(\S+(?: \S+)*)`)
	quitRx = lazyre.New(`(?i)^(?:quit|exit|cancel|abort|none|no)\b`)
)

// numberedItems counts "1: clean", "2) foo", "3. bar" items in the block of
// rows just above the question, and returns the number of the one that
// quits, if any.
func numberedItems(lines []string, qrow int) (n int, quit string) {
	for r := qrow - 1; r >= 0 && r >= qrow-12 && strings.TrimSpace(lines[r]) != ""; r-- {
		for _, m := range itemRx.FindAllStringSubmatch(lines[r], -1) {
			n++
			if quit == "" && quitRx.MatchString(m[2]) {
				quit = m[1]
			}
		}
	}
	return n, quit
}

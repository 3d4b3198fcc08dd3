package heuristics

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
	"github.com/yume-cli/yume-cli/vt"
)

// pointerGlyphs mark the highlighted option of a menu (survey's ">",
// inquirer's "❯", others).
const pointerGlyphs = "❯>›▸→●"

// sideFrames are the vertical lines a dialog box is drawn with.
const sideFrames = "│┃║|"

// menuRow is one visible row read as a possible menu option.
type menuRow struct {
	row     int
	text    string // the option text, pointer and indentation removed
	textCol int    // cell column where the option text starts
	pointer bool   // a pointer glyph precedes the text
}

// readMenuRow splits a row into pointer glyph, indentation and option text.
func readMenuRow(row int, line string) menuRow {
	m := menuRow{row: row}
	// A boxed menu (Copilot's dialogs) has a frame on both sides, maybe
	// after a margin (nanocoder's " │  ❯ Yes, proceed").
	margin := len(line) - len(strings.TrimLeft(line, " "))
	if r, size := utf8.DecodeRuneInString(line[margin:]); size > 0 && strings.ContainsRune(sideFrames, r) {
		line = strings.Repeat(" ", margin+displaywidth.String(line[margin:margin+size])) + strings.TrimRightFunc(line[margin+size:], func(r rune) bool {
			return r == ' ' || strings.ContainsRune(sideFrames, r)
		})
	}
	rest := strings.TrimLeft(line, " ")
	indent := len(line) - len(rest)
	if r, size := utf8.DecodeRuneInString(rest); size > 0 && strings.ContainsRune(pointerGlyphs, r) &&
		(len(rest) == size || rest[size] == ' ') {
		m.pointer = true
		indent += displaywidth.String(rest[:size])
		rest = rest[size:]
		trimmed := strings.TrimLeft(rest, " ")
		indent += len(rest) - len(trimmed)
		rest = trimmed
	}
	m.text = strings.TrimRight(rest, " ")
	m.textCol = indent
	return m
}

// findMenu returns the bottom-most block of at least two consecutive,
// non-blank rows whose option text starts in the same column and which has
// exactly one highlighted row, with the index of that row in the block.
// Menus are what a program draws last, so bottom-most is the live one.
func findMenu(v View) ([]menuRow, int, error) {
	rows := make([]menuRow, v.Rows())
	for r := range rows {
		rows[r] = readMenuRow(r, v.Line(r))
	}
	sawBlock := false
	for end := len(rows) - 1; end >= 0; {
		if rows[end].text == "" {
			end--
			continue
		}
		start := end
		for start > 0 && rows[start-1].text != "" && rows[start-1].textCol == rows[end].textCol {
			start--
		}
		block := rows[start : end+1]
		end = start - 1
		if len(block) < 2 {
			continue
		}
		sawBlock = true
		if hi := highlighted(v, block); hi >= 0 {
			return block, hi, nil
		}
	}
	if sawBlock {
		return nil, -1, fmt.Errorf("no highlighted menu option on screen: no option row starts with a pointer (%s) or has a style of its own", strings.Join(strings.Split(pointerGlyphs, ""), " "))
	}
	return nil, -1, fmt.Errorf("no menu on screen: no two or more aligned option rows")
}

// highlighted finds the one highlighted row of a block: the only row with a
// pointer glyph, else the only row whose style differs from the others.
// It returns -1 when there is no single such row.
func highlighted(v View, block []menuRow) int {
	hi := -1
	for i, m := range block {
		if m.pointer {
			if hi >= 0 {
				return -1
			}
			hi = i
		}
	}
	if hi >= 0 {
		return hi
	}
	styles := make([]vt.Style, len(block))
	for i, m := range block {
		styles[i] = v.Style(m.row, m.textCol)
	}
	if len(block) == 2 {
		// Two rows differ from each other either way; the emphasised one
		// is the highlight only when the other is plain.
		a, b := emphasised(styles[0]), emphasised(styles[1])
		switch {
		case styles[0] == styles[1]:
			return -1
		case a == b:
			// Both styled (a panel's colour under both, a colour on each):
			// the highlight is the one that differs from the ground the
			// options are drawn on (their rows' blank cells), or, both
			// differing, the one drawn on a background of its own.
			base := ground(v, block)
			stands := func(st vt.Style) bool { return st != base }
			switch {
			case stands(styles[0]) && !stands(styles[1]):
				return 0
			case stands(styles[1]) && !stands(styles[0]):
				return 1
			}
			own := func(st vt.Style) bool { return st.Reverse || st.BG != 0 && st.BG != base.BG }
			switch a, b := own(styles[0]), own(styles[1]); {
			case a && !b:
				return 0
			case b && !a:
				return 1
			}
			return -1
		case a:
			return 0
		default:
			return 1
		}
	}
	for i := range styles {
		odd := true
		for j := range styles {
			if j != i && styles[j] == styles[i] {
				odd = false
				break
			}
		}
		if !odd {
			continue
		}
		// Every other row must share one style, or this is not a highlight.
		ref := styles[(i+1)%len(styles)]
		for j := range styles {
			if j != i && styles[j] != ref {
				return -1
			}
		}
		return i
	}
	return -1
}

// ground is the style most of the blank cells of block's rows have,
// outside its options' words: the colour a menu is drawn on (a panel's
// background), against which a highlight stands out.
func ground(v View, block []menuRow) vt.Style {
	count := map[vt.Style]int{}
	seen := map[int]bool{}
	for _, m := range block {
		if seen[m.row] {
			continue
		}
		seen[m.row] = true
		from, to := around(block, m.row)
		col := 0
		for _, r := range v.Line(m.row) {
			if r == ' ' && col >= from && col < to && !inOption(block, m.row, col) {
				count[v.Style(m.row, col)]++
			}
			col += displaywidth.Rune(r)
		}
	}
	var best vt.Style
	n := -1
	for st, c := range count {
		if c > n || c == n && st == (vt.Style{}) {
			best, n = st, c
		}
	}
	return best
}

// around is the span of a row's options and the two cells on each side:
// where the ground under them shows (a box's margin further out is not).
func around(block []menuRow, row int) (from, to int) {
	from, to = -1, 0
	for _, m := range block {
		if m.row != row {
			continue
		}
		if from < 0 || m.textCol < from {
			from = m.textCol
		}
		to = max(to, m.textCol+displaywidth.String(m.text))
	}
	return from - 2, to + 2
}

// inOption reports a cell inside one of block's options' words.
func inOption(block []menuRow, row, col int) bool {
	for _, m := range block {
		if m.row == row && col >= m.textCol && col < m.textCol+displaywidth.String(m.text) {
			return true
		}
	}
	return false
}

// emphasised reports a style that stands out from plain text.
func emphasised(s vt.Style) bool {
	return s.Reverse || s.Bold || s.FG != 0 || s.BG != 0 || s.Underline
}

// selectOption computes the arrow presses that move the highlight of the
// menu on v to the one option matching rx, then Enter.
func selectOption(v View, rx *regexp.Regexp) ([]byte, error) {
	block, hi, err := findMenu(v)
	if err != nil {
		return nil, fmt.Errorf("select:%s: %w", rx, err)
	}
	target := -1
	var matched, all []string
	for i, m := range block {
		all = append(all, m.text)
		if rx.MatchString(m.text) {
			matched = append(matched, m.text)
			target = i
		}
	}
	switch len(matched) {
	case 0:
		return nil, fmt.Errorf("select:%s: no menu option matches; options are %q", rx, all)
	case 1:
	default:
		return nil, fmt.Errorf("select:%s: %d options match %q; make the regex match exactly one", rx, len(matched), matched)
	}
	key := arrow(v, "Down")
	n := target - hi
	if n < 0 {
		key, n = arrow(v, "Up"), -n
	}
	return []byte(strings.Repeat(key, n) + "\r"), nil
}

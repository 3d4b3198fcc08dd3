package heuristics

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// lookText is the text a rule's regex runs over, with a map back to rows.
// Rows soft-wrapped at the screen width are joined into one logical line, so
// a long command matches as one line whatever the terminal width.
type lookText struct {
	text    string
	lowered string // text lower-cased, made on demand for prefilters
	segs    []seg  // one per row, in text order
	from    int    // first row covered (negative: scrollback)
	to      int    // last row covered
}

// seg is one row's slice of the text.
type seg struct {
	row   int // visible row; negative for scrollback (-1 is the newest line)
	start int // byte offset of the row in text
	line  string
}

// isFrame reports a character TUIs draw frames with: box drawing (solid,
// dashed, rounded), block elements (the half blocks of Copilot's input
// box), '|'. A full-width row ending in one, or a row starting with one,
// is a frame, not a soft-wrapped line.
func isFrame(r rune) bool {
	return r >= 0x2500 && r <= 0x259F || r == '|' || r == '▔' || r == '▁'
}

// buildLook assembles the text of look on v.
func buildLook(v View, look Look) *lookText {
	var rows []int
	var lines []string
	switch look.Area {
	case AreaTranscript:
		back := v.Scrollback(look.N)
		for i, l := range back {
			rows = append(rows, i-len(back))
			lines = append(lines, l)
		}
		for r := 0; r < v.Rows(); r++ {
			rows = append(rows, r)
			lines = append(lines, v.Line(r))
		}
	case AreaBottom:
		last, first, seen := -1, 0, 0
		for r := v.Rows() - 1; r >= 0 && seen < look.N; r-- {
			if strings.TrimSpace(v.Line(r)) != "" {
				if last < 0 {
					last = r
				}
				first = r
				seen++
			}
		}
		for r := first; r <= last; r++ {
			rows = append(rows, r)
			lines = append(lines, v.Line(r))
		}
	default:
		for r := 0; r < v.Rows(); r++ {
			rows = append(rows, r)
			lines = append(lines, v.Line(r))
		}
	}
	return joinRows(rows, lines, v.Cols())
}

// joinRows joins the rows into text, soft-wrapped rows without a newline.
func joinRows(rows []int, lines []string, cols int) *lookText {
	lt := &lookText{segs: make([]seg, 0, len(rows))}
	if len(rows) > 0 {
		lt.from, lt.to = rows[0], rows[len(rows)-1]
	}
	var b strings.Builder
	for i, l := range lines {
		lt.segs = append(lt.segs, seg{row: rows[i], start: b.Len(), line: l})
		b.WriteString(l)
		if i+1 < len(lines) && !softWrapped(l, lines[i+1], cols) {
			b.WriteByte('\n')
		}
	}
	lt.text = b.String()
	return lt
}

// softWrapped guesses that line continues on next: it fills the width, and
// neither is part of a frame. A line that wrapped exactly at a blank looks
// one cell short (trailing blanks are trimmed) and stays a separate line.
// A full line that ends in "…" was cut there by its program (Codex's "• Ran
// printf … &&…"), not wrapped: what follows is the next line.
func softWrapped(line, next string, cols int) bool {
	// A cell takes at least one byte, so a short line needs no measuring.
	if next == "" || len(line) < cols || displaywidth.String(line) < cols {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(line)
	first, _ := utf8.DecodeRuneInString(next)
	return !isFrame(last) && !isFrame(first) && last != '…'
}

// lower returns the lower-cased text, computing it once.
func (lt *lookText) lower() string {
	if lt.lowered == "" {
		lt.lowered = strings.ToLower(lt.text)
	}
	return lt.lowered
}

// window returns the byte range of the span+1 logical lines that end with
// the cursor's line; empty when the cursor is not on a row of the text.
func (lt *lookText) window(v View, span int) (from, to int) {
	row, _, _ := v.Cursor()
	i := sort.Search(len(lt.segs), func(i int) bool { return lt.segs[i].row >= row })
	if i == len(lt.segs) || lt.segs[i].row != row {
		return 0, 0
	}
	start := lt.segs[i].start
	to = len(lt.text)
	if nl := strings.IndexByte(lt.text[start:], '\n'); nl >= 0 {
		to = start + nl
	}
	from = strings.LastIndexByte(lt.text[:start], '\n') + 1
	for ; span > 0 && from > 0; span-- {
		from = strings.LastIndexByte(lt.text[:from-1], '\n') + 1
	}
	return from, to
}

// segAt returns the index of the segment holding byte offset off.
func (lt *lookText) segAt(off int) int {
	i := sort.Search(len(lt.segs), func(i int) bool { return lt.segs[i].start > off }) - 1
	return max(i, 0)
}

// rows lists the rows that bytes [start, end) cover; a trailing newline of
// the match does not pull in the next row.
func (lt *lookText) rows(start, end int) []int {
	end = lastByte(lt.text, start, end)
	a, z := lt.segAt(start), lt.segAt(end)
	out := make([]int, 0, z-a+1)
	for i := a; i <= z; i++ {
		out = append(out, lt.segs[i].row)
	}
	return out
}

// lastByte is the offset of the last byte of [start, end) that is not a
// trailing newline, or start for an empty range.
func lastByte(text string, start, end int) int {
	for end > start && text[end-1] == '\n' {
		end--
	}
	return max(end-1, start)
}

// cursorAfter reports whether the cursor sits right after the match
// [start, end): on its last row, at most two cells past its end with nothing
// but blanks in between (prompts print a trailing blank, and Line trims it).
// It returns the match end position for the trace.
func (lt *lookText) cursorAfter(v View, start, end int) (ok bool, endRow, endCol int) {
	for end > start && lt.text[end-1] == '\n' {
		end--
	}
	s := lt.segs[lt.segAt(max(end-1, start))]
	o := min(max(end-s.start, 0), len(s.line))
	endRow, endCol = s.row, displaywidth.String(s.line[:o])
	row, col, _ := v.Cursor()
	if row != endRow || strings.TrimSpace(s.line[o:]) != "" {
		return false, endRow, endCol
	}
	// A prompt that ends in the last column leaves the cursor pending-wrap
	// on that column.
	if endCol >= v.Cols() && col == v.Cols()-1 {
		return true, endRow, endCol
	}
	return col >= endCol && col <= endCol+2, endRow, endCol
}

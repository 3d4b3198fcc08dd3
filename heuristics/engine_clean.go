package heuristics

import (
	"strings"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/clipperhouse/displaywidth"
)

// Group post-processing: a group's text comes from screen rows, with the
// frames and glyphs a TUI draws around a command. cleanGroup turns it back
// into what the program meant.

// edgeBorders are vertical frame glyphs stripped at either edge of a row.
const edgeBorders = "│┃║"

// frameOnly are the glyphs of a horizontal frame row (╭──╮, ╰──╯).
const frameOnly = "╭╮╰╯─━═┌┐└┘├┤┬┴┼╔╗╚╝│┃║ "

// frameEdges are the glyphs that make a row a horizontal frame edge rather
// than an empty row inside a box.
const frameEdges = "╭╮╰╯─━═┌┐└┘┬┴╔╗╚╝"

// promptGlyphs are stripped from the start of a group.
var promptGlyphs = []string{"❯", "›", "●", "$", ">"}

// cleanGroup strips frames and prompt glyphs from a group's text and joins
// its rows: inside a frame, continuation rows join with a space (the TUI
// wrapped the text itself); outside one, rows keep their newlines, with their
// common indentation removed. Soft-wrapped rows were already joined when the
// text was built.
func cleanGroup(s string) string { return cleanRows(s, false, true) }

// cleanCommand is cleanGroup for a command: a blank row inside a frame is
// an empty line of the command (a heredoc's), not a paragraph break, since
// the approved command must be the one that runs.
func cleanCommand(s string) string { return cleanRows(s, true, true) }

// boxedCommand is cleanCommand for a command box's rows, where nothing is
// a prompt glyph: "> out.txt" is the command.
func boxedCommand(s string) string { return cleanRows(s, true, false) }

// drawnCommand is cleanCommand for a command group read off a screen cols
// wide, lead being what its first row holds before the group ("  $ "):
// rows are joined the way the program wrapped them (wrapped rows make one
// line, rows that ended short keep their break, see drawnRows), and the
// indent and frame the command is drawn in are not part of it. cols 0 is
// cleanCommand on the group as drawn.
func drawnCommand(s, lead string, cols int) string {
	if cols <= 0 || !strings.Contains(s, "\n") {
		return cleanCommand(strings.Repeat(" ", displaywidth.String(lead)) + s)
	}
	return drawnRows(strings.Split(lead+s, "\n"), len(lead), cols, true)
}

// drawnAfter is drawnCommand for a group whose lead already took its
// glyph ("$ ", "↳ ", "Command: "): a ">" or "$" that starts the rest is
// the command's own.
func drawnAfter(s, lead string, cols int) string {
	if cols <= 0 || !strings.Contains(s, "\n") {
		return cleanRows(strings.Repeat(" ", displaywidth.String(lead))+s, true, false)
	}
	return drawnRows(strings.Split(lead+s, "\n"), len(lead), cols, false)
}

func cleanRows(s string, blankLines, glyph bool) string {
	if !strings.Contains(s, "\n") && !strings.ContainsAny(s, edgeBorders+"|❯›●$>") {
		return strings.TrimSpace(s) // the common case: one clean line
	}
	lines := strings.Split(s, "\n")
	boxed := false
	kept := lines[:0]
	var room []int // per kept row: the cells its box gives text, 0 unknown
	for _, l := range lines {
		if strings.Trim(l, frameOnly) == "" && strings.ContainsAny(l, frameEdges) {
			boxed = true // a frame row: nothing of the group's text on it
			continue
		}
		cells := boxRoom(l)
		l, b := stripBorders(l)
		boxed = boxed || b
		kept = append(kept, l)
		room = append(room, cells)
	}
	lines = kept
	for i, l := range lines {
		if glyph && strings.TrimSpace(l) != "" {
			lines[i] = stripGlyph(l)
			break
		}
	}
	if boxed {
		return joinBoxed(lines, room, blankLines)
	}
	return dedent(lines)
}

// stripBorders removes a vertical frame from the edges of a row: │ ┃ ║ at
// either edge, or | at both (an ASCII box; a lone | may be a shell pipe).
// Nested frames (a command box inside a dialog box) are stripped a level at
// a time.
func stripBorders(l string) (string, bool) {
	t := strings.TrimRight(l, " ")
	stripped := false
	for {
		r, n := utf8.DecodeLastRuneInString(t)
		if n == 0 || !strings.ContainsRune(edgeBorders, r) {
			break
		}
		t, stripped = strings.TrimRight(t[:len(t)-n], " "), true
	}
	for {
		lead := strings.TrimLeft(t, " ")
		r, n := utf8.DecodeRuneInString(lead)
		if n == 0 || !strings.ContainsRune(edgeBorders, r) {
			break
		}
		t, stripped = lead[n:], true
	}
	if !stripped {
		lt := strings.TrimSpace(t)
		if len(lt) >= 2 && lt[0] == '|' && lt[len(lt)-1] == '|' {
			t, stripped = lt[1:len(lt)-1], true
		}
	}
	return strings.TrimRight(t, " "), stripped
}

// stripGlyph removes one prompt glyph (and the blank after it) from the
// start of l, keeping l's indentation.
func stripGlyph(l string) string {
	body := strings.TrimLeft(l, " ")
	indent := l[:len(l)-len(body)]
	for _, g := range promptGlyphs {
		if rest, ok := strings.CutPrefix(body, g+" "); ok {
			return indent + strings.TrimLeft(rest, " ")
		}
	}
	return l
}

// joinBoxed joins the rows of a framed block the way the TUI broke them: a
// row the box wrapped (the next row's first word would not have fitted
// after it) joins the next with the space the wrap dropped, or with none
// when the row is full (a word broken in the middle); any other row ended a
// line of the text. A blank row ends a paragraph, or with blankLines is an
// empty line of the text; blank rows at the edges are the box's padding.
// room[i] is how many cells row i's box gives text (0: unknown, rows join
// with a space).
func joinBoxed(lines []string, room []int, blankLines bool) string {
	var out []string  // the text's lines
	joinable := false // the last row may continue on this one
	for i, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
			if blankLines {
				out = append(out, "")
			}
			joinable = false
		case joinable:
			last := out[len(out)-1] + wrapJoint(lines[i-1], l, room[i-1]) + l
			out = append(out[:len(out)-1], strings.Split(last, "\n")...)
		default:
			out, joinable = append(out, l), true
		}
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

// wrapJoint is what goes between a boxed row and the next one: "" where
// the row filled its room (a break inside a word), " " where the next
// row's first word would not have fitted (a word wrap), else a newline.
func wrapJoint(row, next string, room int) string {
	if room <= 0 {
		return " "
	}
	w := displaywidth.String(strings.TrimSpace(row))
	first, _, _ := strings.Cut(next, " ")
	switch {
	case w >= room:
		return ""
	case w+1+displaywidth.String(first) > room:
		return " "
	}
	return "\n"
}

// boxRoom is how many cells a framed row gives its text: from one cell
// after the left frame to one cell before the right frame; 0 for a row
// without a frame on both sides.
func boxRoom(l string) int {
	t := strings.TrimRight(l, " ")
	left := 0 // cells up to the text: frames, padding
	i := 0
	for i < len(t) {
		r, n := utf8.DecodeRuneInString(t[i:])
		if r != ' ' && !strings.ContainsRune(edgeBorders, r) {
			break
		}
		if strings.ContainsRune(edgeBorders, r) {
			left = displaywidth.String(t[:i+n]) + 1
		}
		i += n
	}
	j := len(t) // start of the right frame run
	for j > i {
		r, n := utf8.DecodeLastRuneInString(t[:j])
		if r != ' ' && !strings.ContainsRune(edgeBorders, r) {
			break
		}
		j -= n
	}
	k := j // the first frame glyph of that run
	for k < len(t) {
		r, n := utf8.DecodeRuneInString(t[k:])
		if strings.ContainsRune(edgeBorders, r) {
			break
		}
		k += n
	}
	if left == 0 || k >= len(t) {
		return 0
	}
	return displaywidth.String(t[:k]) - 1 - left
}

// dedent removes the indentation common to all non-blank lines and trailing
// blanks, and drops leading and trailing blank lines.
func dedent(lines []string) string {
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if common < 0 || n < common {
			common = n
		}
	}
	var out []string
	for _, l := range lines {
		l = strings.TrimRight(l, " ")
		if len(l) >= common && common > 0 {
			l = l[common:]
		}
		out = append(out, l)
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

var lineNumber = lazyre.New(`^ *\d+ ?`)

// cleanPreview turns a `content` group, a file's lines as a TUI previews
// them (framed, numbered), back into the file's text: frames and the
// line numbers removed, each line ending in a newline.
func cleanPreview(s string) string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\u00a0", " "), "\n") {
		if strings.Trim(l, frameOnly) == "" && strings.ContainsAny(l, frameEdges) {
			continue
		}
		l, _ = stripBorders(l)
		out = append(out, strings.TrimRight(lineNumber.ReplaceAllString(strings.TrimPrefix(l, " "), ""), " "))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// A command drawn over several rows outside a two-sided box (Codex's
// "  $ cmd" over rows indented by two, Claude Code's rows under a "│ "
// rule or indented by three): a row the program wrapped at the width of
// its text area joins the next with the blank the wrap dropped, or with
// nothing where the row is full (a word broken in the middle); a row that
// ended before that width (a heredoc's line, a "\" continuation) keeps
// its break. Those text areas leave as many cells free at the right edge
// as they indent the text at the left (after a frame, if any): two for
// Codex, three for Claude Code's question, one after its "│ ". A row
// wrapped after a word's hyphen joins with nothing (hyphenBreak).

// drawnRow is one row of a command as drawn.
type drawnRow struct {
	text  string // from the text area's left edge (the block's indent removed), or the group's start
	end   int    // the cell after its last character
	pad   int    // blanks between the left frame (or the screen's edge) and its first character
	blank bool
}

// drawnRows joins the rows of a command group whose first row starts at
// byte lead (what precedes the group on it), on a screen cols wide.
func drawnRows(rows []string, lead, cols int, glyph bool) string {
	var drawn []drawnRow
	for i, r := range rows {
		t := strings.TrimRight(r, " ")
		if strings.Trim(t, frameOnly) == "" && strings.ContainsAny(t, frameEdges) {
			continue // a frame row
		}
		if last, _ := utf8.DecodeLastRuneInString(t); strings.ContainsRune(edgeBorders, last) {
			// A two-sided box: its room is known (joinBoxed).
			return cleanRows(strings.Repeat(" ", displaywidth.String(rows[0][:lead]))+strings.Join(append([]string{rows[0][lead:]}, rows[1:]...), "\n"), true, glyph)
		}
		body := strings.TrimLeft(t, " ")
		frame := 0 // bytes up to the end of a left frame
		if f, n := utf8.DecodeRuneInString(body); n > 0 && strings.ContainsRune(edgeBorders, f) {
			frame = len(t) - len(body) + n
		}
		rest := t[frame:]
		text := strings.TrimLeft(rest, " ")
		d := drawnRow{end: displaywidth.String(t), pad: len(rest) - len(text), blank: text == ""}
		if d.end > cols { // full rows the screen's text joined (softWrapped): where its last one ends
			d.end = (d.end-1)%cols + 1
		}
		if i == 0 && lead > frame {
			d.text = t[min(lead, len(t)):]
		} else {
			d.text = rest
		}
		drawn = append(drawn, d)
	}
	block := -1 // the text area's indent: the least of the rows'
	for _, d := range drawn {
		if !d.blank && (block < 0 || d.pad < block) {
			block = d.pad
		}
	}
	edge := cols - max(block, 0) // the cell after the text area
	var b strings.Builder
	glyphDone := false
	for i, d := range drawn {
		text := d.text
		if i > 0 || lead == 0 {
			text = text[min(len(text), max(block, 0)):] // the row's own indent beyond the block's stays
		}
		if glyph && !glyphDone && !d.blank {
			text, glyphDone = stripGlyph(text), true
			if i == 0 {
				text = strings.TrimLeft(text, " ")
			}
		}
		if i > 0 {
			prev := drawn[i-1]
			first, _, _ := strings.Cut(strings.TrimLeft(text, " "), " ")
			switch {
			case prev.blank || d.blank:
				b.WriteByte('\n')
			case prev.end >= edge:
				text = strings.TrimLeft(text, " ") // a word broken where the row ran out
			case prev.end+1+displaywidth.String(first) > edge:
				if !hyphenBreak(prev.text) {
					b.WriteByte(' ') // the next word did not fit: the blank the wrap dropped
				}
				text = strings.TrimLeft(text, " ")
			default:
				b.WriteByte('\n')
			}
		}
		b.WriteString(text)
	}
	return strings.Trim(b.String(), "\n")
}

// hyphenBreak reports a wrapped row that ends in a word's hyphen
// ("notes-" over "copy.txt"): Codex, opencode and Kilo break words there,
// and drop no blank. A lone "-" (stdin, "tar -cf -") is a word of its own.
func hyphenBreak(row string) bool {
	t := strings.TrimRight(row, " ")
	return len(t) >= 2 && t[len(t)-1] == '-' && t[len(t)-2] != ' ' && t[len(t)-2] != '-'
}

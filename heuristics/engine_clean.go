package heuristics

import (
	"strings"
	"unicode/utf8"
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
func cleanGroup(s string) string {
	if !strings.Contains(s, "\n") && !strings.ContainsAny(s, edgeBorders+"|❯›●$>") {
		return strings.TrimSpace(s) // the common case: one clean line
	}
	lines := strings.Split(s, "\n")
	boxed := false
	kept := lines[:0]
	for _, l := range lines {
		if strings.Trim(l, frameOnly) == "" && strings.ContainsAny(l, frameEdges) {
			boxed = true // a frame row: nothing of the group's text on it
			continue
		}
		l, b := stripBorders(l)
		boxed = boxed || b
		kept = append(kept, l)
	}
	lines = kept
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = stripGlyph(l)
			break
		}
	}
	if boxed {
		return joinBoxed(lines)
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

// joinBoxed joins the rows of a framed block: non-blank rows with one space,
// blank rows as paragraph breaks.
func joinBoxed(lines []string) string {
	var b strings.Builder
	para := false
	for _, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
			if para {
				b.WriteByte('\n')
			}
			para = false
		case para:
			b.WriteByte(' ')
			b.WriteString(l)
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
				b.WriteByte('\n')
			}
			b.WriteString(l)
			para = true
		}
	}
	return strings.TrimSpace(b.String())
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

// resultGlyphs open a TUI's rendering of a command's output ("⎿  out",
// "└ out"); each is one cell wide, so it becomes a blank to keep alignment.
const resultGlyphs = "⎿└"

// cleanOutput turns an `output` group back into the command's output: frame
// rows dropped, vertical borders and the result glyph stripped, common
// indentation removed, but every line kept (output is not prose to join).
func cleanOutput(s string) string {
	var lines []string
	first := true
	// TUIs pad with no-break spaces so their layout survives trimming.
	s = strings.ReplaceAll(s, "\u00a0", " ")
	for _, l := range strings.Split(s, "\n") {
		if strings.Trim(l, frameOnly) == "" && strings.ContainsAny(l, frameEdges) {
			continue
		}
		l, _ = stripBorders(l)
		if first && strings.TrimSpace(l) != "" {
			first = false
			body := strings.TrimLeft(l, " ")
			if r, n := utf8.DecodeRuneInString(body); n > 0 && strings.ContainsRune(resultGlyphs, r) {
				l = l[:len(l)-len(body)] + " " + body[n:]
			}
		}
		lines = append(lines, l)
	}
	return dedent(lines)
}

package heuristics

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/clipperhouse/displaywidth"
)

// Dialogs found by their shape, not by a rule: a question with choices
// (a numbered or marked option list, or Yes/Allow/No/Reject choices on
// one row) with one option highlighted. No program's wording is needed:
// the shape is what every TUI's permission dialog shares, and the
// options' own words say which one allows once and which one rejects.
// The driver falls back to this where no rule of the profile fires.

// Dialog is a question with choices read off a screen.
type Dialog struct {
	// Question is the question row ("Allow execution of [Shell]?"), or
	// the dialog's title where no row asks.
	Question string
	// Options are the choices as drawn, numbers kept; Highlight is the
	// highlighted one, Allow the one that allows once and Reject the one
	// that rejects (-1: none).
	Options                  []string
	Highlight, Allow, Reject int
	// Horizontal: the choices sit on one row (Left/Right move between them).
	Horizontal bool
	// Top and Bottom are the visible rows the dialog spans; OptionRows
	// the row of each option.
	Top, Bottom int
	OptionRows  []int
	// Command is a command drawn in the dialog ("$ cmd", a command box,
	// the block under a "… command" heading); "" when none is.
	Command string
	// Tool is Write or Edit for a question about a file, with File and
	// Content (the lines drawn, numbers removed; for Edit, the diff).
	Tool, File, Content string
	// Context is everything drawn with the question, frames removed: a
	// warning, the command box, a diff.
	Context string
}

// maxDialogRows bounds how far above its options a dialog's question
// and top are looked for.
const maxDialogRows = 40

// FindDialog reads the bottom-most dialog on v. The string says why there
// is none, for the trace.
func FindDialog(v View) (*Dialog, string) {
	lines := make([]string, v.Rows())
	for r := range lines {
		lines[r] = v.Line(r)
	}
	d := findVertical(v, lines)
	if d == nil {
		d = findHorizontal(v, lines)
	}
	if d == nil {
		return nil, "no option list with a highlighted option"
	}
	d.Allow, d.Reject = classify(d.Options)
	if d.Allow < 0 {
		return nil, fmt.Sprintf("options %q: none allows once", d.Options)
	}
	q := questionRow(lines, d.OptionRows[0])
	if q < 0 && d.Reject < 0 {
		return nil, fmt.Sprintf("options %q: no question above them and none rejects", d.Options)
	}
	d.Top = dialogTop(lines, max(q, 0), d.OptionRows[0])
	if q >= 0 {
		d.Question = unframed(lines[q])
	} else {
		d.Question = firstText(lines, d.Top, d.OptionRows[0])
	}
	d.Bottom = d.OptionRows[len(d.OptionRows)-1]
	d.read(lines[d.Top:d.OptionRows[0]], d.Question)
	d.Context = cleanGroup(strings.Join(withoutOptions(lines, d), "\n"))
	return d, ""
}

// withoutOptions is the dialog's rows above its options, frame rows kept
// out, for its context.
func withoutOptions(lines []string, d *Dialog) []string {
	var out []string
	for r := d.Top; r < d.OptionRows[0]; r++ {
		if strings.Trim(lines[r], frameOnly) == "" && strings.ContainsAny(lines[r], frameEdges) {
			continue
		}
		out = append(out, lines[r])
	}
	return out
}

var numbered = lazyre.New(`^(\d{1,2})[.)] +(\S.*)$`)

// findVertical finds the bottom-most list of options numbered from 1 (a
// row each, long ones wrapped onto indented rows) or, unnumbered, of
// choice words, with exactly one highlighted.
func findVertical(v View, lines []string) *Dialog {
	rows := make([]menuRow, len(lines))
	for r, l := range lines {
		rows[r] = readMenuRow(r, l)
	}
	for end := len(rows) - 1; end > 0; end-- {
		m := numbered.FindStringSubmatch(rows[end].text)
		if m == nil {
			if d := choiceList(v, rows, end); d != nil {
				return d
			}
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if n < 2 {
			continue
		}
		var block []menuRow
		want, col := n, rows[end].textCol
		for r := end; r >= 0 && want >= 1 && end-r <= 3*n; r-- {
			row := rows[r]
			if mm := numbered.FindStringSubmatch(row.text); mm != nil && row.textCol == col {
				if k, _ := strconv.Atoi(mm[1]); k != want {
					break
				}
				block = append([]menuRow{row}, block...)
				want--
				continue
			}
			if row.text == "" || row.textCol <= col || row.pointer {
				break // not a wrapped option's continuation
			}
		}
		if want != 0 || len(block) < 2 {
			continue
		}
		if hi := highlighted(v, block); hi >= 0 {
			return newDialog(block, hi, false)
		}
	}
	return nil
}

// choiceList is an unnumbered list of choice words ending at row end
// ("❯ Yes" / "  No"), or nil.
func choiceList(v View, rows []menuRow, end int) *Dialog {
	if !isListChoice(rows[end].text) {
		return nil
	}
	start := end
	for start > 0 && rows[start-1].textCol == rows[end].textCol && isListChoice(rows[start-1].text) {
		start--
	}
	block := rows[start : end+1]
	if len(block) < 2 {
		return nil
	}
	if hi := highlighted(v, block); hi >= 0 {
		return newDialog(block, hi, false)
	}
	return nil
}

func newDialog(block []menuRow, hi int, horizontal bool) *Dialog {
	d := &Dialog{Highlight: hi, Horizontal: horizontal}
	for _, m := range block {
		d.Options = append(d.Options, m.text)
		d.OptionRows = append(d.OptionRows, m.row)
	}
	return d
}

var choiceWords = lazyre.New(`(?i)^[\[(<]? *(yes|no|allow|deny|reject|decline|approve|accept|cancel|skip|always|never|ok|proceed|run|abort)\b`)

// isListChoice: a row of a vertical list of choices: a choice, not the
// question above it ("Allow this command?") nor a row of choices of its
// own ("Allow once   Allow always   Reject").
func isListChoice(s string) bool {
	if !isChoice(s) || asks.MatchString(s) {
		return false
	}
	n := 0
	for _, seg := range choiceSegments(s) {
		if isChoice(seg.text) {
			n++
		}
	}
	return n < 2
}

// isChoice: a short option that starts with a choice word.
func isChoice(s string) bool {
	return s != "" && utf8.RuneCountInString(s) <= 80 && choiceWords.MatchString(s)
}

// findHorizontal finds a row of two to five choices set apart by runs of
// blanks ("Allow once   Allow always   Reject"), one styled apart.
func findHorizontal(v View, lines []string) *Dialog {
	for r := len(lines) - 1; r >= 0; r-- {
		text, _ := stripBorders(lines[r])
		var block []menuRow
		skip := 0 // cells of lines[r] before text
		if i := strings.Index(lines[r], text); i > 0 {
			skip = displaywidth.String(lines[r][:i])
		}
		for _, seg := range choiceSegments(text) {
			if !isChoice(seg.text) {
				break // the choices come first; hints may follow
			}
			block = append(block, menuRow{row: r, text: seg.text, textCol: skip + seg.col})
		}
		if len(block) < 2 {
			continue
		}
		if hi := highlighted(v, block); hi >= 0 {
			d := newDialog(block, hi, true)
			return d
		}
	}
	return nil
}

type segment struct {
	text string
	col  int
}

// choiceSegments splits a row at runs of three or more blanks.
func choiceSegments(row string) []segment {
	var segs []segment
	col, start, blanks := 0, -1, 0
	var b strings.Builder
	flush := func() {
		if t := strings.TrimSpace(b.String()); t != "" {
			segs = append(segs, segment{t, start})
		}
		b.Reset()
		start = -1
	}
	for _, r := range row {
		switch {
		case r == ' ' || r == '\u00a0':
			blanks++
			if blanks >= 3 {
				flush()
			}
			b.WriteRune(' ')
		default:
			if start < 0 {
				start, blanks = col, 0
				b.Reset()
			}
			blanks = 0
			b.WriteRune(r)
		}
		col += displaywidth.Rune(r)
	}
	flush()
	return segs
}

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
	// Keys are the key each option names for itself ("[y] Approve": y),
	// nil where the options name none; LineKeys: the program reads a line,
	// so a key is followed by Enter (the cursor waits after the options).
	Keys     []string
	LineKeys bool
	// Command is a command drawn in the dialog ("$ cmd", a command box, an
	// arrow or labelled row, a tool call's form, the block under a "…
	// command" heading); "" when none is. Cut: the dialog shows it cut
	// short ("…" where the rest would be), and nothing on screen has it whole.
	Command string
	Cut     bool
	// Trust: the dialog asks whether to trust a folder (an agent's first
	// run in a workspace), not about a call.
	Trust bool
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
	d := bottomMost(findVertical(v, lines), findHorizontal(v, lines), findKeyed(v, lines))
	if d == nil {
		return nil, "no option list with a highlighted option, and no options that name their own keys"
	}
	d.Allow, d.Reject = classify(d.Options)
	if d.Keys == nil {
		d.Keys = keyedOptions(d.Options)
	}
	d.LineKeys = d.Keys != nil && waitsAfter(v, lines, d)
	q := questionRow(lines, d.OptionRows[0])
	if d.Allow < 0 && q >= 0 && trustWords.MatchString(lines[q]) {
		// "Yes, I trust this folder": trusting is the question's yes.
		for i, o := range d.Options {
			if OptionMeaning(o) == MeansAllow && d.Allow < 0 {
				d.Allow = i
			}
		}
	}
	if d.Allow < 0 {
		return nil, fmt.Sprintf("options %q: none allows once", d.Options)
	}
	if q < 0 && d.Reject < 0 {
		return nil, fmt.Sprintf("options %q: no question above them and none rejects", d.Options)
	}
	top, bounded := dialogTop(lines, max(q, 0), d.OptionRows[0])
	if !bounded {
		top = narrowTop(lines, max(max(q, 0)-maxDialogRows/2, 0), max(q, 0))
	}
	d.Top = top
	if q >= 0 {
		d.Question = unframed(lines[q])
	} else {
		d.Question = firstText(lines, d.Top, d.OptionRows[0])
	}
	d.Bottom = d.OptionRows[len(d.OptionRows)-1]
	d.read(lines[d.Top:d.OptionRows[0]], d.Question, v.Cols())
	d.Context = cleanGroup(strings.Join(withoutOptions(lines, d), "\n"))
	d.Trust = d.Command == "" && d.Tool == "" && trustWords.MatchString(d.Question+"\n"+d.Context) && folderWords.MatchString(d.Question+"\n"+d.Context)
	return d, ""
}

var (
	// trustWords and folderWords make a question about trusting a
	// folder: "Do you trust the files in this folder?", "Trust this
	// workspace?".
	trustWords  = lazyre.New(`(?i)\btrust(?:ed|ing)?\b`)
	folderWords = lazyre.New(`(?i)\b(?:folder|directory|workspace|project|files in|repository|repo)\b`)
)

// bottomMost is the dialog drawn lowest of those found (the first on a
// tie): what a program draws last is the live question.
func bottomMost(found ...*Dialog) *Dialog {
	var best *Dialog
	for _, d := range found {
		if d != nil && (best == nil || d.OptionRows[len(d.OptionRows)-1] > best.OptionRows[len(best.OptionRows)-1]) {
			best = d
		}
	}
	return best
}

// waitsAfter reports that the cursor waits, shown, after the dialog's
// last option on its row: a program reading a line (a key, then Enter),
// not a TUI that takes one key.
func waitsAfter(v View, lines []string, d *Dialog) bool {
	row, col, visible := v.Cursor()
	last := d.OptionRows[len(d.OptionRows)-1]
	return visible && row == last && col >= displaywidth.String(strings.TrimRight(lines[last], " "))
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
			if d := markedList(v, rows, end); d != nil {
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

// markedList is a list ending at row end whose one highlighted row is
// marked by a pointer glyph ("> Continue (tab)", "❯ ✓ Yes, execute this
// tool"), whatever its words: the pointer is the shape of a menu. The
// rows are short, aligned and none asks; FindDialog then needs one that
// allows once.
func markedList(v View, rows []menuRow, end int) *Dialog {
	optionLike := func(m menuRow) bool {
		return m.text != "" && utf8.RuneCountInString(m.text) <= 80 && !asks.MatchString(m.text) &&
			strings.Trim(m.text, frameOnly) != ""
	}
	if !optionLike(rows[end]) {
		return nil
	}
	start := end
	for start > 0 && end-start < 9 && rows[start-1].textCol == rows[end].textCol && optionLike(rows[start-1]) {
		start--
	}
	block := rows[start : end+1]
	pointers := 0
	for _, m := range block {
		if m.pointer {
			pointers++
		}
	}
	if len(block) < 2 || pointers != 1 {
		return nil
	}
	return newDialog(block, highlighted(v, block), false)
}

// findKeyed finds the bottom-most options that each name a key of their
// own, different keys: a row of them ("[y] Approve   [n] Deny") or a
// column, one a row ("(y) Yes" over "(n) No"). A highlight is read where
// one is drawn (-1: none); the keys answer either way.
func findKeyed(v View, lines []string) *Dialog {
	for r := len(lines) - 1; r >= 0; r-- {
		text, _ := stripBorders(lines[r])
		skip := 0
		if i := strings.Index(lines[r], text); i > 0 {
			skip = displaywidth.String(lines[r][:i])
		}
		var block []menuRow
		for _, seg := range segmentsApart(text, 2) {
			block = append(block, menuRow{row: r, text: seg.text, textCol: skip + seg.col})
		}
		if d := keyedBlock(v, block, true); d != nil {
			return d
		}
		m := readMenuRow(r, lines[r])
		if optionKey(m.text) == "" {
			continue
		}
		block = []menuRow{m}
		for u := r - 1; u >= 0 && r-u < 9; u-- {
			above := readMenuRow(u, lines[u])
			if above.textCol != m.textCol || optionKey(above.text) == "" {
				break
			}
			block = append([]menuRow{above}, block...)
		}
		if d := keyedBlock(v, block, false); d != nil {
			return d
		}
	}
	return nil
}

// keyedBlock is a dialog of block's options when each names a key of
// its own and they are choices, else nil.
func keyedBlock(v View, block []menuRow, horizontal bool) *Dialog {
	if len(block) < 2 || len(block) > 9 {
		return nil
	}
	var options []string
	for _, m := range block {
		if utf8.RuneCountInString(m.text) > 80 {
			return nil
		}
		options = append(options, m.text)
	}
	keys := keyedOptions(options)
	if keys == nil {
		return nil
	}
	d := newDialog(block, highlighted(v, block), horizontal)
	d.Keys = keys
	return d
}

func newDialog(block []menuRow, hi int, horizontal bool) *Dialog {
	d := &Dialog{Highlight: hi, Horizontal: horizontal}
	for _, m := range block {
		d.Options = append(d.Options, m.text)
		d.OptionRows = append(d.OptionRows, m.row)
	}
	return d
}

var choiceWords = lazyre.New(`(?i)^(yes|no|allow|deny|reject|decline|approve|accept|cancel|skip|always|never|ok|proceed|run|abort|continue|execute|confirm|don'?t)\b`)

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

// isChoice: a short option whose words (its label) start with a choice word.
func isChoice(s string) bool {
	return s != "" && utf8.RuneCountInString(s) <= 80 && choiceWords.MatchString(optionLabel(s))
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
func choiceSegments(row string) []segment { return segmentsApart(row, 3) }

// segmentsApart splits a row at runs of gap or more blanks.
func segmentsApart(row string, gap int) []segment {
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
			if blanks >= gap {
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

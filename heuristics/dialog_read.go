package heuristics

import (
	"strings"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// Reading a dialog found by its shape: which option allows once and which
// rejects, where its question and top are, and what it is about (a
// command drawn in it, or a file).

var (
	rejects = lazyre.New(`(?i)^(?:no|reject|deny|decline|cancel|skip|abort|don'?t|do not|stop)\b`)
	allows  = lazyre.New(`(?i)^(?:yes|allow|approve|accept|proceed|run|execute|continue|ok|okay|confirm|apply|create|write|save)\b`)
	// widens marks an option that allows more than this once.
	widens = lazyre.New(`(?i)\b(?:always|session|don'?t ask|do not ask|never ask|all\b|every|auto|remember|permanent|forever|future|from now|without asking|trust)`)
)

// classify returns the option that allows this once and the one that
// rejects (-1: none): the first of each, never one that widens.
func classify(options []string) (allow, reject int) {
	allow, reject = -1, -1
	for i, o := range options {
		o = optionLabel(o)
		switch {
		case rejects.MatchString(o):
			if reject < 0 {
				reject = i
			}
		case allows.MatchString(o) && !widens.MatchString(o):
			if allow < 0 {
				allow = i
			}
		}
	}
	return allow, reject
}

// questionRow is the nearest row above the options that asks (ends in
// "?", a hint in brackets allowed after it), or -1.
var asks = lazyre.New(`\?(?:\s*[(\[][^)\]]*[)\]])?:?$`)

func questionRow(lines []string, options int) int {
	nearest := -1
	for r := options - 1; r >= 0 && options-r <= maxDialogRows/2; r-- {
		t := unframed(lines[r])
		if t == "" || !asks.MatchString(t) || strings.HasPrefix(t, "$ ") {
			continue
		}
		if questionWord.MatchString(t) {
			return r
		}
		if nearest < 0 {
			nearest = r
		}
	}
	return nearest
}

// questionWord starts a row that asks ("Do you want to…?"), not one that
// only ends in "?" ("Reason: write outside the sandbox?").
var questionWord = lazyre.New(`(?i)^(?:[?●△⚠]\s*)?(?:do|does|would|will|shall|should|allow|are|is|can|may|proceed|run|apply|continue|overwrite|create|delete|execute|approve|trust|permit|accept|confirm)\b`)

// unframed is a row's text without its frame and margins.
func unframed(l string) string {
	t, _ := stripBorders(l)
	return strings.TrimSpace(t)
}

// dialogTop is the first row of the dialog holding the question row q:
// after the frame's top edge, or a full rule above an unframed dialog,
// or two blank rows. bounded: a frame or a rule says where it starts.
func dialogTop(lines []string, q, options int) (top int, bounded bool) {
	from := min(q, options)
	frame := leadingFrame(lines[from])
	blanks := 0
	for r := from - 1; r >= 0 && from-r <= maxDialogRows; r-- {
		l := lines[r]
		switch {
		case frame != 0 && leadingFrame(l) != frame:
			return r + 1, true // the frame's top edge, or what is above it
		case frame == 0 && isRule(l):
			return r + 1, true
		case strings.TrimSpace(l) == "":
			if blanks++; blanks == 2 {
				return r + 2, false
			}
		default:
			blanks = 0
		}
	}
	return max(from-maxDialogRows, 0), frame != 0
}

// leadingFrame is the vertical frame glyph a row starts with (after its
// margin), or 0.
func leadingFrame(l string) rune {
	for _, r := range strings.TrimLeft(l, " ") {
		if strings.ContainsRune(sideFrames, r) && r != '|' {
			return r
		}
		return 0
	}
	return 0
}

// isRule: a row that is one solid horizontal line (not a dashed one, which
// TUIs draw inside dialogs around a preview).
func isRule(l string) bool {
	t := strings.TrimSpace(l)
	return len([]rune(t)) >= 8 && strings.Trim(t, "─━═") == ""
}

func firstText(lines []string, from, to int) string {
	for r := from; r < to; r++ {
		if t := unframed(lines[r]); t != "" && strings.Trim(t, frameOnly) != "" {
			return t
		}
	}
	return ""
}

var (
	// fileQuestion names a file in the question: "Do you want to create
	// notes.md?", "make this edit to src/a.go?", "Overwrite x.txt?".
	fileQuestion = lazyre.New(`(?i)\b(create|write|overwrite|save|edit|modify|update|change|make (?:this|these) (?:edit|change)s? to|apply (?:this |these )?changes? to)\s+(?:to\s+|the file\s+|file\s+)?` + "[`'\"]?" + `([\w.~/\\-]*[\w~/-][.][\w]+|[~.]?/[\w./-]+)`)
	// fileHeading names a file in a heading row: "Create file" over the
	// path, "? WriteFile  Writing to notes.md", "Edit notes.md", "Write(a.txt)".
	fileHeading = lazyre.New(`(?i)^(?:[?●✓⏺△]\s*)?(create file|write ?file|writing to|write|overwrite file|edit file|edit|editing|update|patch)\b[\s:(]*` + "[`'\"]?" + `([\w.~/\\-]*[.][\w]+|[~.]?/[\w./-]+)?`)
	// commandHeading is a heading over an indented command block.
	commandHeading  = lazyre.New(`(?i)^(?:[?●✓⏺△]\s*)?(?:(?:bash|shell|run|terminal) +)?command:?$`)
	commandQuestion = lazyre.New(`(?i)\b(?:run|execute|command|shell|bash)\b`)
	filePath        = lazyre.New(`^[\w.~/\\-]*[\w~/-][.][\w]+$|^[~.]?/[\w./-]+$`)
)

// read finds what the dialog is about in its rows above the options.
func (d *Dialog) read(rows []string, question string, cols int) {
	blocks := innerBlocks(rows)
	if m := fileQuestion.FindStringSubmatch(question); m != nil {
		d.File, d.Tool = m[2], fileTool(m[1])
	}
	if d.Tool == "" && !commandQuestion.MatchString(question) {
		// A command's dialog is titled with the model's description
		// ("Write made.txt"), which names no file to write.
		d.fileFromHeadings(rows)
	}
	if d.Tool != "" {
		if len(blocks) > 0 {
			d.Content = cleanPreview(strings.Join(blocks[0], "\n"))
		}
		return
	}
	d.Command, d.Cut = commandIn(rows, question, cols)
}

// fileFromHeadings reads a file question from its heading ("Create file"
// over the path, "? WriteFile  Writing to notes.md"): headings come before
// what they head, so the search stops at the first box, "$ " row or
// command heading (a command's words are no heading).
func (d *Dialog) fileFromHeadings(rows []string) {
	for i, l := range rows {
		t := unframed(l)
		if opensBlock(t) || isDashed(t) || strings.HasPrefix(t, "$ ") || commandHeading.MatchString(t) {
			return
		}
		m := fileHeading.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		file := m[2]
		if file == "" && i+1 < len(rows) && filePath.MatchString(unframed(rows[i+1])) {
			file = unframed(rows[i+1])
		}
		if file != "" {
			d.File, d.Tool = file, fileTool(m[1])
			return
		}
	}
}

func fileTool(verb string) string {
	switch v := strings.ToLower(verb); {
	case strings.HasPrefix(v, "create"), strings.HasPrefix(v, "writ"), strings.HasPrefix(v, "overwrite"), v == "save":
		return "Write"
	}
	return "Edit"
}

// innerBlocks are the rows inside boxes (╭─╮ … ╰─╯) or between dashed
// rules (╌╌╌) drawn within the dialog's rows.
func innerBlocks(rows []string) [][]string {
	var blocks [][]string
	open := -1
	for i, l := range rows {
		t := unframed(l)
		switch {
		case open < 0 && opensBlock(t):
			open = i
		case open >= 0 && (strings.HasPrefix(t, "╰") || strings.HasPrefix(t, "└")) && strings.Trim(t, frameOnly) == "":
			blocks, open = append(blocks, rows[open+1:i]), -1
		case isDashed(t) && open < 0:
			open = i
		case isDashed(t):
			blocks, open = append(blocks, rows[open+1:i]), -1
		}
	}
	return blocks
}

func isDashed(t string) bool {
	return len([]rune(t)) >= 4 && strings.Trim(t, "╌┄┈- ") == "" && strings.ContainsAny(t, "╌┄┈")
}

// continuation is the rows that carry on a "$ cmd" row: indented, up to
// a blank row.
func continuation(rows []string) string {
	var b strings.Builder
	for _, l := range rows {
		t, _ := stripBorders(l)
		if strings.TrimSpace(t) == "" || !strings.HasPrefix(t, "   ") {
			break
		}
		b.WriteString("\n" + strings.TrimSpace(t))
	}
	return b.String()
}

// indentedBlock is the command under a heading: the indented rows after
// it (blank rows before them skipped), without a last row that reads as
// prose (a description: a capital, words, no shell punctuation).
func indentedBlock(rows []string, under int) string {
	var block []string
	for _, l := range rows {
		t, _ := stripBorders(l)
		if strings.TrimSpace(t) == "" {
			if len(block) > 0 {
				break
			}
			continue
		}
		if indentOf(l) <= under {
			break // not under the heading
		}
		block = append(block, t)
	}
	if len(block) > 1 && prose.MatchString(strings.TrimSpace(block[len(block)-1])) {
		block = block[:len(block)-1]
	}
	return dedent(block)
}

var prose = lazyre.New(`^[A-Z][a-z]+(?: [\w'’,.-]+)+$`)

// opensBlock: a box's top edge.
func opensBlock(t string) bool {
	return (strings.HasPrefix(t, "╭") || strings.HasPrefix(t, "┌")) && strings.Trim(t, frameOnly) == ""
}

// indentOf is how far a row's text is indented inside its frame.
func indentOf(l string) int {
	t, _ := stripBorders(l)
	return len(t) - len(strings.TrimLeft(t, " "))
}

// inputGlyphs open the row of a TUI's input box (Claude's and Copilot's
// ❯, Codex's ›, Gemini's >).
const inputGlyphs = "❯›>"

// InputBox reports a TUI's ready input box near the bottom of v, read
// by its shape where no profile says what it looks like: among the last
// few rows, one that starts with an input glyph and is no option of a
// menu, or an empty row between two horizontal edges (Copilot's ┃).
func InputBox(v View) bool {
	if _, ok := ReadyBox(v); ok {
		return true
	}
	seen := 0
	for r := v.Rows() - 1; r >= 0 && seen < 8; r-- {
		line := v.Line(r)
		t := unframed(line)
		if strings.TrimSpace(line) == "" || isEdge(line) {
			continue
		}
		seen++
		if t == "" && r > 0 && r+1 < v.Rows() && isEdge(v.Line(r-1)) && isEdge(v.Line(r+1)) {
			return true
		}
		g, size := utf8.DecodeRuneInString(t)
		if !strings.ContainsRune(inputGlyphs, g) || len(t) > size && t[size] != ' ' {
			continue
		}
		rest := strings.TrimSpace(t[size:])
		if !numbered.MatchString(rest) && !isChoice(rest) {
			return true
		}
	}
	return false
}

// isEdge: a row that is a horizontal edge of a box (lines, corners, half
// blocks), at least 8 cells long.
func isEdge(l string) bool {
	t := strings.TrimSpace(l)
	return len([]rune(t)) >= 8 && strings.Trim(t, "─━═▄▀╭╮╰╯┌┐└┘╻╹┏┓┗┛ ") == ""
}

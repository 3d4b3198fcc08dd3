package heuristics

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// resultGlyphs open a TUI's rendering of a command's output ("⎿  out",
// "└ out"); each is one cell wide, so it becomes a blank to keep alignment.
const resultGlyphs = "⎿└"

// cleanOutput turns an `output` group back into the command's output: frame
// rows dropped, vertical borders and the result glyph stripped, common
// indentation removed, but every line kept (output is not prose to join).
// Rows the TUI draws among the output that are not the program's (a fold
// marker such as "… +4 lines (ctrl+o to expand)", Copilot's "<shellId: 0
// completed with exit code 0>") are left out; hidden says how many lines a
// fold marker hid (-1: some, not how many; 0: none).
func cleanOutput(s string) (out string, hidden int) {
	var lines []string
	first := true
	// TUIs pad with no-break spaces so their layout survives trimming.
	s = strings.ReplaceAll(s, "\u00a0", " ")
	for _, l := range strings.Split(s, "\n") {
		if strings.Trim(l, frameOnly) == "" && strings.ContainsAny(l, frameEdges) {
			continue
		}
		l, _ = stripBorders(l)
		body := strings.TrimLeft(l, " ")
		if first && body != "" {
			if r, n := utf8.DecodeRuneInString(body); n > 0 && strings.ContainsRune(resultGlyphs, r) {
				l = l[:len(l)-len(body)] + " " + body[n:]
				body = strings.TrimLeft(body[n:], " ")
			}
		}
		if n, ok := FoldMarker(body); ok {
			hidden = foldCount(hidden, n)
			continue
		}
		if tuiNote.MatchString(body) {
			continue
		}
		if body != "" {
			first = false
		}
		lines = append(lines, l)
	}
	alignFirst(lines)
	return dedent(lines), hidden
}

// alignFirst puts the first line of output, its result glyph taken off,
// at the indent of the lines under it where it sits deeper ("    ⎿ one"
// over "    two", Grok CLI's): the glyph and its blank were the TUI's.
func alignFirst(lines []string) {
	first, under := -1, -1
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if first < 0 {
			first = i
			continue
		}
		if under < 0 || n < under {
			under = n
		}
	}
	if first < 0 || under < 0 {
		return
	}
	if l := lines[first]; len(l)-len(strings.TrimLeft(l, " ")) > under {
		lines[first] = strings.Repeat(" ", under) + strings.TrimLeft(l, " ")
	}
}

// foldMarkers are rows a TUI draws where it folds a command's output:
// Claude Code's "… +4 lines (ctrl+o to expand)", Codex's "+ 4 lines (^t
// to expand)" and "+ Show details", Gemini CLI's "... first 32 lines
// hidden (Ctrl+O to show) ...", Cline's "... 2 more lines", a bare
// "(ctrl+o to expand)".
var foldMarkers = lazyre.New(`(?i)^(?:…\s*)?\+\s*(\d+)\s+(?:more\s+)?lines?\b.*$|^(?:\.\.\.|…)\s*(?:first\s+)?(\d+)\s+(?:more\s+)?lines?(?:\s+hidden\b.*)?$|^(?:…\s*)?\((?:ctrl|\^)\s*\+?\s*\w+\s+to\s+(?:expand|show|see)\b[^)]*\)$|^\+?\s*show details$`)

// tuiNote is a row a TUI adds to a command's output about the run, not
// printed by it (Copilot CLI 1.0.87).
var tuiNote = lazyre.New(`^<shellId: \d+ completed with exit code \d+>$`)

// FoldMarker reports whether row (its indent and the result glyph
// removed) is a TUI's fold marker, and how many lines it hides (-1: not
// said).
func FoldMarker(row string) (int, bool) {
	m := foldMarkers.FindStringSubmatch(strings.TrimSpace(row))
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1] + m[2])
	if err != nil {
		return -1, true
	}
	return n, true
}

func foldCount(sum, n int) int {
	if sum < 0 || n < 0 {
		return -1
	}
	return sum + n
}

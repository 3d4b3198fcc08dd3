package heuristics

import (
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// A TUI draws an approved command's output where its transcript tells of
// the call: under a row that shows the command again ("⏺ Bash(cmd)",
// "* run_commands(cmd)", "• Ran cmd", "$ cmd", "✓ Shell cmd" in a box),
// indented under it or marked "⎿". Read there, the output is never the
// input box, the status line or the model's answer after it, which start
// items of their own. A TUI that never draws the output has no such
// block; the tool_result then says so.

// echoKey is how much of a command's first line an echo must show: a TUI
// may cut it short or wrap it.
const echoKey = 24

// OutputAfterEcho reads the output drawn under the last row of lines that
// shows command again. wrapped reports whether the terminal carried row
// i on to the next (vt's Wrapped; nil where not known): the rows an echo
// wrapped onto are the command, not its output, even where a wrap fell
// on a space. found is false where no row shows it; hidden says how many
// lines a fold marker hid (-1: some).
func OutputAfterEcho(lines []string, wrapped func(i int) bool, command string, cols int) (out string, hidden int, found bool) {
	command = strings.TrimSuffix(command, "…") // shown cut short: its start is what shows again
	first := strings.TrimSpace(firstLine(command))
	if first == "" {
		return "", 0, false
	}
	key := first
	if utf8.RuneCountInString(key) > echoKey {
		key = string([]rune(key)[:echoKey])
	}
	echo := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], key) {
			echo = i
			break
		}
	}
	if echo < 0 {
		return "", 0, false
	}
	rest := lines[echo+1:]
	after := func(i int) bool { return wrapped != nil && wrapped(echo+i) } // i = 0: the echo row
	skip := commandRows(lines[echo], rest, after, command, cols)
	rest = rest[skip:]
	if _, boxed := stripBorders(lines[echo]); boxed && leadingFrame(lines[echo]) != 0 {
		out, hidden = cleanOutput(strings.Join(boxRest(rest), "\n"))
		return out, hidden, true
	}
	out, hidden = cleanOutput(strings.Join(itemRest(lines[echo], rest), "\n"))
	return out, hidden, true
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// commandRows counts the rows after an echo that carry on the command
// itself: up to the parenthesis that closes a call's form ("Bash(…" over
// rows, the command in it maybe longer than the dialog showed); else rows
// after one that filled the screen's width (the terminal wrapped it) and
// rows of the command's own text (a TUI's word wrap, a heredoc's lines),
// never a row marked as a result ("⎿"). wrapped(i) says the terminal
// wrapped the row before rows[i] (i = 0: the echo).
func commandRows(echo string, rows []string, wrapped func(i int) bool, command string, cols int) int {
	open := strings.Count(echo, "(") - strings.Count(echo, ")")
	n, prev := 0, echo
	for i, l := range rows {
		t := strings.TrimSpace(unframed(l))
		if t == "" || strings.ContainsRune(resultGlyphs, firstRuneOf(t)) {
			break
		}
		if open > 0 {
			open += strings.Count(t, "(") - strings.Count(t, ")")
			n, prev = n+1, l
			if open <= 0 {
				break // the call's form is closed
			}
			continue
		}
		body := strings.TrimSuffix(t, ")")
		carried := wrapped(i) || cols > 0 && displaywidth.String(strings.TrimRight(prev, " ")) >= cols
		if !carried && (len(body) < 3 || !strings.Contains(command, body)) {
			break
		}
		n, prev = n+1, l
	}
	return n
}

func firstRuneOf(t string) rune {
	r, _ := utf8.DecodeRuneInString(t)
	return r
}

// boxRest is the rest of the box an echo row is in, up to its bottom edge.
func boxRest(rows []string) []string {
	var out []string
	for _, l := range rows {
		if isEdge(l) || leadingFrame(l) == 0 {
			break
		}
		out = append(out, l)
	}
	return out
}

// itemRest is the rest of the transcript item an echo row opens: rows
// indented deeper than it, or marked as a result ("⎿"), blank rows
// inside; the item ends at a row as shallow as the echo (the next item,
// the model's answer), a frame or an input box.
func itemRest(echo string, rows []string) []string {
	base := indentOf(echo)
	shell := strings.HasPrefix(unframed(echo), "$ ")
	var out []string
	glyphAt := -1 // the indent of a result glyph ("⎿"): the output's rows go deeper, or as deep
	blank := false
	for _, l := range rows {
		t := unframed(l)
		if t == "" {
			out, blank = append(out, ""), true
			continue
		}
		if isEdge(l) || strings.Trim(t, frameOnly) == "" {
			break
		}
		r, _ := utf8.DecodeRuneInString(t)
		marked := strings.ContainsRune(resultGlyphs+"│", r)
		if glyphAt >= 0 && !marked && (indentOf(l) < glyphAt || indentOf(l) == glyphAt && blank) {
			break // back at (or before) the glyph's column after a blank: the model's answer, not output
		}
		blank = false
		if marked && glyphAt < 0 {
			glyphAt = indentOf(l)
		}
		if body := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(t), resultGlyphs+"│")); statusRow.MatchString(body) {
			continue // the TUI's word for a call at work, not its output
		}
		deeper := indentOf(l) > base || marked
		if shell && indentOf(l) == base && !strings.ContainsRune(bulletGlyphs+pointerGlyphs, r) {
			deeper = true // "$ cmd" with its output under it at one indent
		}
		if !deeper || strings.ContainsRune(bulletGlyphs, r) && indentOf(l) <= base+2 {
			break
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if len(out) > 0 && outputLabel.MatchString(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(unframed(out[0])), resultGlyphs))) {
		out = out[1:] // "⎿  Terminal output:"
	}
	return out
}

// outputLabel is a row a TUI puts over a command's output.
var outputLabel = lazyre.New(`(?i)^(?:terminal |command |shell )?(?:output|stdout|result)s?:?$`)

// statusRow is a TUI's word for a call at work or waiting, drawn where
// its output will be: "Running…", "Executing...", "Requesting user
// confirmation".
var statusRow = lazyre.New(`(?i)^(?:running|executing|waiting(?: for [\w ]+)?|pending|in progress|requesting[\w ]*)\s*(?:…|\.\.\.)?$`)

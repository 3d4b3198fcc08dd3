package dialoggen

import (
	"math/rand/v2"
	"regexp"
	"strings"
)

// The colours a shape draws with: a highlight's background and text, the
// others' text, a panel's background.
const (
	hiBG    = "\x1b[30;46m"
	plainFG = "\x1b[37m"
	panelBG = "\x1b[48;5;236m"
	panelHi = "\x1b[48;5;111m\x1b[30m"
	reset   = "\x1b[0m"
)

// Render is the whole screen with option hi highlighted (-1: none), rows
// separated by "\r\n".
func (s Shape) Render(hi int) string {
	rows := append([]string{}, s.Above...)
	if s.Row {
		rows = append(rows, s.optionRow(hi))
	} else {
		for i, o := range s.Options {
			rows = append(rows, s.framed(s.option(i, o, hi)))
		}
	}
	rows = append(rows, s.Below...)
	return strings.Join(rows, "\r\n")
}

// option draws one option of a column.
func (s Shape) option(i int, label string, hi int) string {
	switch s.Highlight {
	case "pointer":
		if i == hi {
			return s.Pointer + " " + label
		}
		return strings.Repeat(" ", cells(s.Pointer)+1) + label
	case "bg":
		if i == hi {
			return hiBG + label + reset
		}
		return plainFG + label + reset
	}
	return label
}

// optionRow draws the options on one row, three blanks apart, on a
// panel's colour where the shape has one.
func (s Shape) optionRow(hi int) string {
	var b strings.Builder
	if s.Highlight == "panel" {
		b.WriteString(panelBG + " ")
	}
	for i, o := range s.Options {
		if i > 0 {
			b.WriteString("   ")
		}
		if s.Highlight == "panel" && i == hi {
			b.WriteString(panelHi + o + reset + panelBG)
			continue
		}
		b.WriteString(o)
	}
	if s.Highlight == "panel" {
		b.WriteString(" " + reset)
	}
	return s.framed(b.String())
}

// Moves reports how the highlight moves: down/up in a column, right/left
// on a row.
func (s Shape) Moves() (fwd, back string) {
	if s.Row {
		return "right", "left"
	}
	return "down", "up"
}

// words of generated commands: shell words, quotes, operators.
var words = []string{"echo", "printf", "ls", "-la", "grep", "-n", "alpha", "made.txt", "&&", "|", "wc", "-l", "'a b'",
	"src/main.go", "--flag=value", "tmp/out.log", "2>&1", "sed", "'s/a/b/'", "git", "status", "--short", "npm", "test",
	"lorem-ipsum-dolor", "sit-amet-consectetur"}

// command is a command that fits width once or runs over a few rows;
// runnable: one that runs here, makes made.txt and prints RESULT-42 (a
// line the shell computes, which the command's own text does not hold).
func command(r *rand.Rand, runnable bool, width int) string {
	n := 1 + r.IntN(6)
	if r.IntN(3) == 0 {
		n += width / 8 // long: it wraps, or is cut
	}
	var w []string
	if runnable {
		w = []string{"printf", "'made\\n'", ">", "made.txt", "&&", "echo", "RESULT-$((6*7))"}
		for range n {
			w = append(w, "&&", "echo", words[len(words)-1-r.IntN(2)])
		}
		return strings.Join(w, " ")
	}
	for range n {
		w = append(w, words[r.IntN(len(words))])
	}
	for strings.Contains("| && 2>&1", w[len(w)-1]) {
		w[len(w)-1] = "alpha"
	}
	return strings.Join(w, " ")
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

func stripSGR(s string) string { return sgr.ReplaceAllString(s, "") }

// Reading the question on the screen: its row, the row above as context,
// the cursor's place, and the regex the rule will match it with, checked
// against that same screen with the rule engine.

package suggest

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/clipperhouse/displaywidth"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/vt"
)

// question is what the screen asked when the person started to answer.
type question struct {
	text   string // the question row
	absRow int64  // its absoluteRow
	prompt string // the row without a leading "? " status mark
	name   string // rule name from its words
	// The rule's regex is (?m), the optional context row, then body: the
	// question row and, for an arrow menu, its options.
	context, body string
	cursorEnd     bool
	menu          menuKind
	quitOption    string // a numbered menu's quit/cancel option number
	hint          bool   // a y/n hint such as (y/n), [Y/n], (yes)
	defaultYes    int    // +1: Enter says yes, -1: no, 0: unknown
}

// match is the question's regex.
func (q *question) match() string { return "(?m)" + q.context + q.body }

// readQuestion finds the question on the screen and builds its regex. The
// row above is its context unless it is an earlier question (asked): a
// rule's rows must not overlap the rows of the question answered before,
// or the engine takes the new question for the old one.
func readQuestion(scr *vt.Screen, asked map[int64]bool) (*question, string) {
	lines := scr.Lines()
	crow, _, _ := scr.Cursor()
	if crow < 0 || crow >= len(lines) {
		return nil, "the cursor is off the screen"
	}
	q := &question{}
	qrow := -1
	var option, marker string
	if r, m, opt, ok := findArrowMenu(lines, crow); ok {
		qrow, marker, option, q.menu = r, m, opt, arrowMenu
	} else {
		qrow = crow
		if strings.TrimSpace(lines[qrow]) == "" {
			return nil, "the cursor was on a blank row: no question to anchor on"
		}
		q.cursorEnd = cursorAfterText(scr)
	}
	q.text = lines[qrow]
	q.absRow = absoluteRow(scr, qrow)
	indent, prefix, body := splitRow(q.text)
	q.prompt = body
	q.hint = hintRx.MatchString(body)
	q.defaultYes = defaultAnswer(body)
	q.name = ruleName(body)
	if q.menu == noMenu {
		if n, quit := numberedItems(lines, qrow); n >= 2 && !q.hint {
			q.menu, q.quitOption = numberedMenu, quit
		}
	}

	if ctx, gap, ok := contextRow(lines, qrow); ok && !asked[q.absRow-int64(gap)-1] {
		var c strings.Builder
		c.WriteString("(?:^")
		if strings.HasPrefix(ctx, " ") {
			c.WriteString(" *")
		}
		c.WriteString("(?P<context>")
		c.WriteString(generalise(strings.TrimLeft(ctx, " "), false))
		c.WriteString(")")
		c.WriteString(strings.Repeat(`\n`, gap+1))
		c.WriteString(")?")
		q.context = c.String()
	}
	var re strings.Builder
	re.WriteString("^")
	if indent != "" {
		re.WriteString(" *")
	}
	re.WriteString(literal(prefix))
	re.WriteString("(?P<prompt>")
	re.WriteString(generalise(body, true))
	re.WriteString(")$")
	if q.menu == arrowMenu {
		// The options, down to the one highlighted when the person started:
		// the answer keys move from there. Once the highlight moves or the
		// menu closes, the rule no longer matches and does not fire again.
		re.WriteString(`\n(?:[ \t].*\n)*?[ \t]*`)
		re.WriteString(literal(marker))
		re.WriteString(" +(?P<option>")
		re.WriteString(generalise(option, false))
		re.WriteString(")$")
	} else if lastNonBlank(lines) == qrow {
		// The question is the last thing on the screen: once the program
		// prints below it, it was answered (also when Enter left the row
		// as it was), so the rule neither fires again nor is retyped.
		re.WriteString(`\n*\z`)
	}
	q.body = re.String()
	if !matches(scr, q.match(), q.cursorEnd) {
		// The generalised regex must match the screen it came from; fall
		// back to the literal row if it does not.
		q.context, q.body = "", "^(?P<prompt>"+literal(q.text)+")$"
		if q.menu == arrowMenu || !matches(scr, q.match(), q.cursorEnd) {
			return nil, fmt.Sprintf("no regex built from %q matches its own screen", q.text)
		}
	}
	return q, ""
}

// matches checks a question's regex against the screen it came from with
// the rule engine, cursor condition included.
func matches(scr *vt.Screen, match string, cursorEnd bool) bool {
	rx, err := regexp.Compile(match)
	if err != nil {
		return false
	}
	r := &heuristics.Rule{Name: "check", Look: heuristics.Look{Area: heuristics.AreaScreen}, Match: rx,
		Kind: heuristics.KindInput, Approve: heuristics.MustParseKeys("x")}
	if cursorEnd {
		r.Cursor = heuristics.CursorEnd
	}
	det, _ := heuristics.NewEngine(&heuristics.Profile{Rules: []*heuristics.Rule{r}}).Evaluate(scr, true)
	return det != nil
}

// contextRow is the nearest non-blank row above the question, at most two
// blank rows up, when it says something (letters or digits).
func contextRow(lines []string, qrow int) (row string, gap int, ok bool) {
	for r := qrow - 1; r >= 0 && r >= qrow-3; r-- {
		if strings.TrimSpace(lines[r]) == "" {
			continue
		}
		if !strings.ContainsFunc(lines[r], func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }) {
			return "", 0, false
		}
		return lines[r], qrow - r - 1, true
	}
	return "", 0, false
}

func lastNonBlank(lines []string) int {
	for r := len(lines) - 1; r >= 0; r-- {
		if strings.TrimSpace(lines[r]) != "" {
			return r
		}
	}
	return -1
}

// absoluteRow numbers a screen row counting the rows scrolled off above it,
// so that rows stay comparable as the screen scrolls.
func absoluteRow(scr *vt.Screen, row int) int64 { return int64(scr.Retired()) + int64(row) }

// cursorAfterText is the engine's test for cursor: end on the cursor's row:
// the cursor at most two cells after its text.
func cursorAfterText(scr *vt.Screen) bool {
	row, col, _ := scr.Cursor()
	w := displaywidth.String(scr.Line(row))
	if w == 0 {
		return false
	}
	return col >= w && col <= w+2 || w >= scr.Cols() && col == scr.Cols()-1
}

// statusRx is a leading status mark of prompt libraries: inquirer's and
// survey's "? ", enquirer's "✔ ", "[?] ".
var statusRx = lazyre.New(`^(?:\? |\[\?\] )`)

// splitRow splits a question row into its indentation, a status mark and
// the question.
func splitRow(row string) (indent, prefix, body string) {
	body = strings.TrimLeft(row, " ")
	indent = row[:len(row)-len(body)]
	if m := statusRx.FindString(body); m != "" && len(m) < len(body) {
		prefix, body = m, body[len(m):]
	}
	return indent, prefix, body
}

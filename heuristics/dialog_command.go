package heuristics

import (
	"strings"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// Where a dialog draws the command it asks about, best first: a "$ cmd"
// row, a box of its own, an arrow row under a title ("↳ cmd"), a labelled
// row ("Command: cmd", "⎿ Will run: cmd"), the tool call's own form
// ("Bash(cmd)", "⏺ Run bash command(cmd)"), the block under a "… command"
// heading, and last a quoted span in the question ("Run `cmd`?"). Never a
// banner, a status line or the user's own prompt (a "❯ "/"> " row): those
// are no command's shape. A command the dialog wraps is joined as drawn
// (drawnCommand); one it cuts short ("…") is taken whole from another
// place the dialog draws it, or kept as shown and marked Cut.

// cmdFound is one place a dialog draws its command.
type cmdFound struct {
	text string
	rank int // lower is better
}

const (
	rankDollar = iota
	rankBox
	rankArrow
	rankLabel
	rankCall
	rankHeading
	rankQuoted
)

var (
	// arrowRow is a command under a title, after an arrow.
	arrowRow = lazyre.New(`^[↳→➜⮑↪⤷]\s+\S`)
	// labelRow is a command after a label that says it is one.
	labelRow = lazyre.New(`(?i)^(?:[⎿└│]\s*)?(?:command|cmd|will run|running|run|execute|executing|shell command|bash command|shell|bash)\s*:\s+\S`)
	// callRow is a shell tool's call in its own form: "Bash(cmd)",
	// "Run bash command(cmd)", "run_commands(cmd)", "Shell(cmd)".
	callRow = lazyre.New(`(?i)^(?:[⏺●•*○◯✓✗⚒▸◆✦]\s+)?(?:run\s+)?(?:bash|shell|sh|zsh|terminal|exec|execute|execute_bash|run_commands?|run_shell_command|shell_command|command)(?:\s+command)?\(`)
	// quotedRun is a command quoted in a question about running one.
	quotedRun = lazyre.New("(?i)\\b(?:run|execute|execution of)(?: the)?(?: command)?:? *['\"`]([^'\"`]+)['\"`]")
)

// bulletGlyphs open an item of a TUI's transcript ("⏺ Bash(…)", "⚒
// execute_bash"): a dialog's own title may be one.
const bulletGlyphs = "⏺●•*○◯✓✗⚒▸◆✦▣"

// commandIn finds the command drawn in rows (the dialog's, above its
// options) on a screen cols wide, and whether it is cut short.
func commandIn(rows []string, question string, cols int) (string, bool) {
	var found []cmdFound
	for i := 0; i < len(rows); i++ {
		t := unframed(rows[i])
		switch {
		case strings.HasPrefix(t, "$ ") && strings.TrimSpace(t[2:]) != "":
			// Consecutive "$ " rows are one script, a line each.
			var lines []string
			for ; i < len(rows) && strings.HasPrefix(unframed(rows[i]), "$ "); i++ {
				n := wrapRows(rows[i+1:], cols)
				lines = append(lines, groupAfter(rows[i:i+1+n], "$ ", cols))
				i += n
			}
			i--
			found = append(found, cmdFound{strings.Join(lines, "\n"), rankDollar})
		case arrowRow.MatchString(t):
			n := wrapRows(rows[i+1:], cols)
			_, size := firstRune(t)
			found = append(found, cmdFound{groupAfter(rows[i:i+1+n], t[:size], cols), rankArrow})
		case labelRow.MatchString(t):
			n := wrapRows(rows[i+1:], cols)
			label := t[:strings.IndexByte(t, ':')+1]
			found = append(found, cmdFound{groupAfter(rows[i:i+1+n], label, cols), rankLabel})
		case callRow.MatchString(t):
			if c, n := callCommand(rows[i:], cols); c != "" {
				found = append(found, cmdFound{c, rankCall})
				i += n - 1
			}
		}
	}
	if blocks := innerBlocks(rows); len(blocks) > 0 {
		found = append(found, cmdFound{boxedCommand(strings.Join(blocks[0], "\n")), rankBox})
	}
	for i, l := range rows {
		if commandHeading.MatchString(unframed(l)) {
			if c := indentedBlock(rows[i+1:], indentOf(l)); c != "" {
				found = append(found, cmdFound{c, rankHeading})
			}
			break
		}
	}
	if m := quotedRun.FindStringSubmatch(question); m != nil && strings.TrimSpace(m[1]) != "" {
		found = append(found, cmdFound{strings.TrimSpace(m[1]), rankQuoted})
	}
	return bestCommand(found)
}

// bestCommand is the best-ranked command found; one cut short gives way
// to another that draws it whole.
func bestCommand(found []cmdFound) (string, bool) {
	best := -1
	for i, f := range found {
		if f.text != "" && (best < 0 || f.rank < found[best].rank) {
			best = i
		}
	}
	if best < 0 {
		return "", false
	}
	text := found[best].text
	shown, cut := cutShort(text)
	if !cut {
		return text, false
	}
	for _, f := range found {
		if _, c := cutShort(f.text); !c && len(f.text) > len(shown) && strings.HasPrefix(f.text, shown) {
			return f.text, false
		}
	}
	// "..." ends a command now and then (echo wait...); "…" is a TUI's.
	return text, strings.HasSuffix(text, "…")
}

// cutShort reports a command drawn with an ellipsis where its rest would
// be, and what it shows before it.
func cutShort(s string) (string, bool) {
	for _, e := range []string{"…", "..."} {
		if t, ok := strings.CutSuffix(s, e); ok && strings.TrimSpace(t) != "" {
			return t, true
		}
	}
	return s, false
}

// groupAfter is the command that follows lead on rows[0], over the rows
// it wraps onto.
func groupAfter(rows []string, lead string, cols int) string {
	first := strings.TrimRight(rows[0], " ")
	at := strings.Index(first, lead)
	if at < 0 {
		return ""
	}
	head := first[:at+len(lead)]
	for len(first) > len(head) && first[len(head)] == ' ' {
		head = first[:len(head)+1]
	}
	group := append([]string{first[len(head):]}, rows[1:]...)
	return drawnAfter(strings.Join(group, "\n"), head, cols)
}

// wrapRows counts the rows after a command's first that carry it on:
// text, not blank, not a row of another kind (a "$ " row, an option,
// a question, a label).
func wrapRows(rows []string, cols int) int {
	n := 0
	for _, l := range rows {
		t := unframed(l)
		if t == "" || strings.HasPrefix(t, "$ ") || arrowRow.MatchString(t) || labelRow.MatchString(t) ||
			callRow.MatchString(t) || asks.MatchString(t) || isChoice(t) || numbered.MatchString(t) ||
			strings.Trim(t, frameOnly) == "" {
			break
		}
		if r, _ := firstRune(t); strings.ContainsRune(pointerGlyphs+bulletGlyphs+resultGlyphs, r) {
			break
		}
		n++
	}
	return n
}

// callCommand reads a call's form over the rows it spans, up to the
// parenthesis that closes it at a row's end; n is how many rows.
func callCommand(rows []string, cols int) (string, int) {
	t := unframed(rows[0])
	open := strings.IndexByte(t, '(')
	for n := 1; n <= len(rows) && n <= 12; n++ {
		if n > 1 && unframed(rows[n-1]) == "" {
			return "", 0
		}
		if strings.HasSuffix(unframed(rows[n-1]), ")") {
			c := groupAfter(rows[:n], t[:open+1], cols)
			return strings.TrimSpace(strings.TrimSuffix(c, ")")), n
		}
	}
	return "", 0
}

// narrowTop is the top of a dialog no frame or rule bounds, from the
// question row q: the block (rows between blanks) that opens its item
// (a bullet row, or a row that draws the command) if one is near above,
// else the question's own block. A logo or an earlier answer above is
// not the dialog's.
func narrowTop(lines []string, top, q int) int {
	for r := q; r >= top && q-r <= 16; r-- {
		t := unframed(lines[r])
		if t == "" {
			continue
		}
		first, _ := firstRune(t)
		header := strings.ContainsRune(bulletGlyphs, first) && indentOf(lines[r]) <= indentOf(lines[q]) // not a detail's bullet
		if header || strings.HasPrefix(t, "$ ") || arrowRow.MatchString(t) || labelRow.MatchString(t) || callRow.MatchString(t) ||
			commandHeading.MatchString(t) {
			return blockStart(lines, r, top)
		}
	}
	return blockStart(lines, q, top)
}

// blockStart is the first row of the block of non-blank rows holding r,
// not above top.
func blockStart(lines []string, r, top int) int {
	for r > top && unframed(lines[r-1]) != "" {
		r--
	}
	return r
}

// firstRune is t's first rune and its size in bytes.
func firstRune(t string) (rune, int) { return utf8.DecodeRuneInString(t) }

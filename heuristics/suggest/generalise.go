// Generalising a row into a regex: the variable parts (quoted and file
// names, paths, numbers, a default in parentheses) become patterns, the
// rest stays literal.

package suggest

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// Variable parts of a row, tried in this order; the earlier wins where two
// overlap. Hints stay as they are.
var (
	quotedRx  = lazyre.New("'[^'\n]+'|\"[^\"\n]+\"|‘[^’\n]+’|“[^”\n]+”|`[^`\n]+`")
	defaultRx = lazyre.New(`: ?(\([^()\n]+\)|\[[^\[\]\n]+\])$`)
	hexRx     = lazyre.New(`\b0x[0-9a-fA-F]+\b`)
	pathRx    = lazyre.New(`[^\s'"()\[\]{}<>,;]*/[^\s'"()\[\]{}<>,;]*`)
	fileRx    = lazyre.New(`\b[\w-]*[A-Za-z0-9]\.[A-Za-z][A-Za-z0-9]{0,7}\b|\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b`)
)

type span struct {
	start, end int
	re         string // "" keeps the text (a hint)
}

// generalise writes a row as a regex: hints as they are, quoted and file
// names as .+?, hex and decimal numbers as patterns, a trailing default in
// parentheses as any default (question rows only), runs of blanks as " +",
// the rest literal.
func generalise(row string, isQuestion bool) string {
	var spans []span
	addAll := func(rx *lazyre.Regexp, re func(s string) string) {
		for _, loc := range rx.FindAllStringSubmatchIndex(row, -1) {
			s, e := loc[0], loc[1]
			if len(loc) >= 4 && loc[2] >= 0 {
				s, e = loc[2], loc[3]
			}
			if rx == pathRx {
				// A path ends before the sentence does, and has a name in it:
				// "1/2" is a count, "y/n" a hint.
				for e > s && strings.ContainsRune(".?!:", rune(row[e-1])) {
					e--
				}
				if !strings.ContainsFunc(row[s:e], func(c rune) bool { return unicode.IsLetter(c) || c == '.' || c == '~' }) {
					continue
				}
			}
			overlaps := false
			for _, sp := range spans {
				overlaps = overlaps || s < sp.end && e > sp.start
			}
			if !overlaps {
				spans = append(spans, span{s, e, re(row[s:e])})
			}
		}
	}
	addAll(hintRx, func(h string) string {
		// A list of one-letter choices, git add -p's [y,n,q,a,d,j,J,g,/,e,?],
		// changes from question to question: keep its start.
		if first, rest, ok := strings.Cut(h, ","); ok && strings.Contains(rest, ",") {
			second, _, _ := strings.Cut(rest, ",")
			end := h[len(h)-1:]
			return literal(first+","+second+",") + `[^` + literal(end) + `\n]*` + literal(end)
		}
		return ""
	})
	addAll(quotedRx, func(s string) string {
		open, _ := utf8.DecodeRuneInString(s)
		closing, _ := utf8.DecodeLastRuneInString(s)
		return literal(string(open)) + ".+?" + literal(string(closing))
	})
	if isQuestion {
		addAll(defaultRx, func(s string) string {
			if s[0] == '(' {
				return `\([^)\n]*\)`
			}
			return `\[[^\]\n]*\]`
		})
	}
	addAll(hexRx, func(string) string { return `0x[0-9a-fA-F]+` })
	addAll(pathRx, func(string) string { return ".+?" })
	addAll(fileRx, func(string) string { return ".+?" })
	var b strings.Builder
	pos := 0
	for pos < len(row) {
		next := span{start: len(row), end: len(row)}
		for _, sp := range spans {
			if sp.start >= pos && sp.start < next.start {
				next = sp
			}
		}
		b.WriteString(literalPattern(row[pos:next.start], pos == 0))
		if next.start == len(row) {
			break
		}
		if next.re == "" {
			b.WriteString(literal(row[next.start:next.end]))
		} else {
			b.WriteString(next.re)
		}
		pos = next.end
	}
	return b.String()
}

var blanksRx = lazyre.New(`\d+| {2,}`)

// literalPattern is literal text with numbers as \d+ and runs of blanks as
// " +" (columns of a menu move with the widths of their entries).
func literalPattern(s string, atStart bool) string {
	var b strings.Builder
	pos := 0
	for _, loc := range blanksRx.FindAllStringIndex(s, -1) {
		b.WriteString(literal(s[pos:loc[0]]))
		switch {
		case s[loc[0]] != ' ':
			b.WriteString(`\d+`)
		case atStart && loc[0] == 0:
			b.WriteString(" *")
		default:
			b.WriteString(" +")
		}
		pos = loc[1]
	}
	b.WriteString(literal(s[pos:]))
	return b.String()
}

// literal is regexp.QuoteMeta with control characters escaped, so the
// regex fits on one line of the profile.
func literal(s string) string {
	q := regexp.QuoteMeta(s)
	if !strings.ContainsFunc(q, unicode.IsControl) {
		return q
	}
	var b strings.Builder
	for _, c := range q {
		if unicode.IsControl(c) {
			fmt.Fprintf(&b, `\x{%x}`, c)
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

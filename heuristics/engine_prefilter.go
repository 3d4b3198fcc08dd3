package heuristics

import (
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// A rule's regex runs after every settle over thousands of bytes, and most
// of the time nothing matches. Go's regexp cannot skip ahead for patterns
// anchored with (?m)^, so each rule first checks, with strings.Contains,
// for a literal that every match must contain ("rm: ", "y/n"). Only when
// the literal is there does the regex run.

// lit is a literal a match must contain; fold means case-insensitive (text
// lower-cased, ASCII only).
type lit struct {
	s    string
	fold bool
}

// prefilter is a set of literals of which a match contains at least one;
// an empty prefilter admits everything.
type prefilter []lit

// admits reports whether text (and its lower-cased form, computed on
// demand) may hold a match.
func (p prefilter) admits(text string, lower func() string) bool {
	if len(p) == 0 {
		return true
	}
	for _, l := range p {
		if l.fold && strings.Contains(lower(), l.s) || !l.fold && strings.Contains(text, l.s) {
			return true
		}
	}
	return false
}

// newPrefilter derives the required literals of a regex.
func newPrefilter(expr string) prefilter {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	p, _ := required(re.Simplify())
	return p
}

// required returns literals of which every match of re contains one.
func required(re *syntax.Regexp) (prefilter, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return single(string(re.Rune), re.Flags&syntax.FoldCase != 0)
	case syntax.OpCharClass:
		// [Yy] is a case-folded letter; [x] is a literal.
		r := re.Rune
		if len(r) == 2 && r[0] == r[1] {
			return single(string(r[0]), false)
		}
		if len(r) == 4 && r[0] == r[1] && r[2] == r[3] && r[0] < utf8.RuneSelf &&
			r[0] >= 'A' && r[0] <= 'Z' && r[2] == r[0]+'a'-'A' {
			return single(string(r[2]), true)
		}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		return concat(re.Sub)
	case syntax.OpAlternate:
		var all prefilter
		for _, s := range re.Sub {
			p, ok := required(s)
			if !ok {
				return nil, false
			}
			all = append(all, p...)
		}
		return all, true
	}
	return nil, false
}

// single is a one-literal prefilter; folded literals must be ASCII.
func single(s string, fold bool) (prefilter, bool) {
	if fold {
		if !isASCII(s) {
			return nil, false
		}
		s = strings.ToLower(s)
	}
	return prefilter{{s, fold}}, true
}

// concat merges runs of adjacent single literals into longer ones, then
// keeps the most selective requirement: the one whose shortest literal is
// longest.
func concat(subs []*syntax.Regexp) (prefilter, bool) {
	var best prefilter
	score := func(p prefilter) int {
		m := -1
		for _, l := range p {
			if m < 0 || len(l.s) < m {
				m = len(l.s)
			}
		}
		return m
	}
	consider := func(p prefilter) {
		if len(p) > 0 && score(p) > score(best) {
			best = p
		}
	}
	var run *lit
	flush := func() {
		if run != nil {
			consider(prefilter{*run})
			run = nil
		}
	}
	for _, s := range subs {
		p, ok := required(s)
		if !ok || len(p) != 1 || !contiguous(s) {
			flush()
			if ok {
				consider(p)
			}
			continue
		}
		if run == nil {
			run = &lit{p[0].s, p[0].fold}
			continue
		}
		if (run.fold || p[0].fold) && !(isASCII(run.s) && isASCII(p[0].s)) {
			// Only ASCII folds safely; start a new run instead.
			flush()
			run = &lit{p[0].s, p[0].fold}
			continue
		}
		if run.fold || p[0].fold {
			// Folding the run is weaker, so the result is still required.
			run.s, run.fold = strings.ToLower(run.s)+strings.ToLower(p[0].s), true
		} else {
			run.s += p[0].s
		}
	}
	flush()
	return best, len(best) > 0
}

// contiguous reports whether re matches exactly its literal, so it can be
// glued to its neighbours (a+ cannot: it may be "aaa").
func contiguous(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral, syntax.OpCharClass:
		return true
	case syntax.OpCapture:
		return contiguous(re.Sub[0])
	}
	return false
}

// isASCII reports whether s is plain ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lineSpan returns how many newlines a match of expr can contain at most,
// or -1 when unbounded or when the pattern anchors to the text's start or
// end (\A, \z): such a rule cannot be run on a window of the text.
func lineSpan(expr string) int {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return -1
	}
	return newlines(re.Simplify())
}

// newlines is lineSpan over a parsed regex.
func newlines(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return strings.Count(string(re.Rune), "\n")
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return 1
			}
		}
		return 0
	case syntax.OpAnyChar:
		return 1
	case syntax.OpBeginText, syntax.OpEndText:
		return -1
	case syntax.OpCapture, syntax.OpQuest:
		return newlines(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		n := newlines(re.Sub[0])
		switch {
		case n <= 0:
			return n
		case re.Op != syntax.OpRepeat || re.Max < 0:
			return -1
		}
		return n * re.Max
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, s := range re.Sub {
			n := newlines(s)
			if n < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total
	}
	return 0
}

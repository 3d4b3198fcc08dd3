package heuristics

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// Why a rule did not fire, as expect's exp_internal tells it: the rule's
// pattern is cut into its parts in order, and the longest run of them
// from the start that still matches somewhere says where the screen and
// the rule part ways: the first part that found nothing, and the rows
// where the run before it matched, with what it matched there.

// Miss is why a rule's pattern found nothing on a screen.
type Miss struct {
	// Part is the first part of the pattern that matched nowhere after
	// the parts before it (Index of Parts, from 1); Group the named group
	// it is in, if any.
	Part         string
	Index, Parts int
	Group        string
	// Near are the rows where the parts before it matched (the bottom-most
	// first, at most three), with how much of each they matched.
	Near []NearRow
	// said, of worded: the parts before Part that hold some literal text,
	// of all such parts (Nearest: a run of wildcards is no evidence).
	said, worded int
}

// NearRow is a row a rule's pattern matched part of.
type NearRow struct {
	Row     int    `json:"row"`
	Text    string `json:"text"`
	Matched string `json:"matched"`
}

// maxNear bounds the rows a Miss names.
const maxNear = 3

// WhyNot explains why r's pattern matches nothing on v (nil where it
// matches, or its pattern cannot be cut into parts).
func WhyNot(v View, r *Rule) *Miss {
	if r == nil || r.Match == nil || r.Name == DialogRule {
		return nil
	}
	return whyNotIn(buildLook(v, r.Look), r)
}

// Looks builds each look a screen is read through once, for WhyNotIn.
type Looks struct {
	v  View
	by map[Look]*lookText
}

// NewLooks reads v for WhyNotIn.
func NewLooks(v View) *Looks { return &Looks{v: v, by: map[Look]*lookText{}} }

// WhyNotIn is WhyNot with the screen's text read once for all its rules.
func (l *Looks) WhyNotIn(r *Rule) *Miss {
	if r == nil || r.Match == nil || r.Name == DialogRule {
		return nil
	}
	lt := l.by[r.Look]
	if lt == nil {
		lt = buildLook(l.v, r.Look)
		l.by[r.Look] = lt
	}
	return whyNotIn(lt, r)
}

func whyNotIn(lt *lookText, r *Rule) *Miss {
	if r.Match.MatchString(lt.text) {
		return nil
	}
	c := cutRule(r)
	if c == nil {
		return nil
	}
	parts, groups := c.parts, c.groups
	m := &Miss{Parts: len(parts)}
	// The longest run of parts that still matches somewhere: a run longer
	// than one that fails fails too, so it is searched for by halves.
	found := func(k int) [][]int {
		pre := c.prefixes[k]
		if pre == nil {
			return nil
		}
		var locs [][]int
		for _, l := range pre.FindAllStringIndex(lt.text, -1) {
			if l[1] > l[0] { // an anchor alone matches everywhere: no place
				locs = append(locs, l)
			}
		}
		return locs
	}
	lo, hi := 0, len(parts) // parts[:lo] matches (or lo is 0), parts[:hi] does not
	var best [][]int
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if locs := found(mid); len(locs) > 0 {
			lo, best = mid, locs
		} else {
			hi = mid
		}
	}
	for k, w := range c.worded {
		if w {
			m.worded++
			if k < lo {
				m.said++
			}
		}
	}
	if lo > 0 {
		m.Part, m.Index, m.Group = parts[lo], lo+1, groups[lo]
		m.Near = nearRows(lt, best)
		return m
	}
	first := 0 // the first part that is more than an anchor
	for first < len(parts)-1 && c.zero[first] {
		first++
	}
	m.Part, m.Index, m.Group = parts[first], first+1, groups[first]
	return m
}

// zeroWidth reports an anchor: a part that matches no character.
func zeroWidth(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
		return true
	}
	return false
}

// hasLiteral reports a part that spells some text out: "rm: remove " or
// "\?" does, "\S.*" does not.
func hasLiteral(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral {
		return true
	}
	for _, s := range re.Sub {
		if hasLiteral(s) {
			return true
		}
	}
	return false
}

// cut is a rule's pattern cut into its parts, with each run of them from
// the start compiled (prefixes[k]: the first k parts; nil where a run is
// no pattern of its own). Rules do not change: cut once, kept.
type cut struct {
	parts    []string // each part as a pattern
	zero     []bool   // each part an anchor alone
	worded   []bool   // each part holds literal text (not only classes and anchors)
	groups   []string
	prefixes []*regexp.Regexp
}

var cuts sync.Map // pattern -> *cut

func cutRule(r *Rule) *cut {
	if c, ok := cuts.Load(r.Match.String()); ok {
		return c.(*cut)
	}
	re, err := syntax.Parse(r.Match.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	c := &cut{}
	parts, groups := splitParts(re)
	c.groups = groups
	c.prefixes = make([]*regexp.Regexp, len(parts))
	for k, p := range parts {
		c.parts = append(c.parts, p.String())
		if k > 0 {
			prefix := &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: parts[:k]}
			c.prefixes[k], _ = regexp.Compile(prefix.String()) // nil: no pattern of its own
		}
	}
	c.zero, c.worded = make([]bool, len(parts)), make([]bool, len(parts))
	for k, p := range parts {
		c.zero[k], c.worded[k] = zeroWidth(p), hasLiteral(p)
	}
	cuts.Store(r.Match.String(), c)
	return c
}

// splitParts cuts a pattern into the parts it is a sequence of, looking
// through a group around the whole and into a named group (its parts
// are the pattern's), with the named group each part is in.
func splitParts(re *syntax.Regexp) ([]*syntax.Regexp, []string) {
	return appendParts(nil, nil, re, "")
}

// appendParts adds re's parts in order: a sequence's one by one, a
// group's (named or not) as its own, each with the named group it is in.
func appendParts(parts []*syntax.Regexp, groups []string, re *syntax.Regexp, group string) ([]*syntax.Regexp, []string) {
	switch {
	case re.Op == syntax.OpCapture && len(re.Sub) == 1:
		if re.Name != "" {
			group = re.Name
		}
		return appendParts(parts, groups, re.Sub[0], group)
	case re.Op == syntax.OpConcat:
		for _, s := range re.Sub {
			parts, groups = appendParts(parts, groups, s, group)
		}
		return parts, groups
	}
	return append(parts, re), append(groups, group)
}

// nearRows are the rows of the last matches (bottom-most first), with the
// part of each row the match covered.
func nearRows(lt *lookText, locs [][]int) []NearRow {
	var out []NearRow
	seen := map[int]bool{}
	for i := len(locs) - 1; i >= 0 && len(out) < maxNear; i-- {
		start, end := locs[i][0], locs[i][1]
		// A run ending in blanks (a \s* over the row's end) got as far
		// as its last character that shows.
		for end > start+1 && strings.ContainsRune(" \t\n", rune(lt.text[end-1])) {
			end--
		}
		rows := lt.rows(start, end)
		if len(rows) == 0 {
			continue
		}
		row := rows[len(rows)-1] // where the match got to
		if seen[row] {
			continue
		}
		seen[row] = true
		s := lt.segs[lt.segAt(max(end-1, start))]
		from := max(start, s.start)
		matched := lt.text[from:min(end, s.start+len(s.line))]
		out = append(out, NearRow{Row: row, Text: clip(strings.TrimRight(s.line, " "), 160), Matched: clip(matched, 160)})
	}
	return out
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// String says the miss in a line: "part 3 of 5 `\[y/N\]` (in group
// prompt) matched nowhere after the parts before it, which matched row 12
// up to \"Delete it? \"".
func (m *Miss) String() string {
	in := ""
	if m.Group != "" {
		in = " (in group " + m.Group + ")"
	}
	if len(m.Near) == 0 {
		return fmt.Sprintf("part %d of %d `%s`%s matches nowhere: nothing on the screen starts the pattern", m.Index, m.Parts, m.Part, in)
	}
	n := m.Near[0]
	if strings.TrimSpace(n.Matched) == "" {
		return fmt.Sprintf("part %d of %d `%s`%s found nothing after the parts before it, which matched only blanks at row %d %q",
			m.Index, m.Parts, m.Part, in, n.Row, n.Text)
	}
	return fmt.Sprintf("part %d of %d `%s`%s found nothing after the parts before it, which matched row %d up to %q",
		m.Index, m.Parts, m.Part, in, n.Row, n.Matched)
}

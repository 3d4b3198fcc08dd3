package heuristics

import "sort"

// RuleMiss is a rule that did not recognise a screen, and why.
type RuleMiss struct {
	Rule *Rule
	Miss *Miss
}

// Nearest names the question rules of p that came closest to matching v,
// at most n, the closest first: those whose pattern matched the most of
// the text it spells out somewhere (as a share of its parts that hold
// literal text: a rule whose wildcards matched a row but none of its
// words is not near), then the most of its parts, in profile order on a
// tie. A screen that asks something no rule recognised is explained by
// them: the rule that should have fired is usually the first.
func Nearest(v View, p *Profile, n int) []RuleMiss {
	if p == nil || n <= 0 {
		return nil
	}
	looks := NewLooks(v)
	var out []RuleMiss
	for _, r := range p.Rules {
		if !r.Kind.asks() && r.Kind != KindSuggestion {
			continue
		}
		if m := looks.WhyNotIn(r); m != nil {
			out = append(out, RuleMiss{Rule: r, Miss: m})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Miss, out[j].Miss
		if sa, sb := a.saidShare(), b.saidShare(); sa != sb {
			return sa > sb
		}
		return a.reach() > b.reach()
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// saidShare is the share of the pattern's worded parts that matched
// before the one that failed (0 where none matched, or it has none).
func (m *Miss) saidShare() float64 {
	if len(m.Near) == 0 || m.worded == 0 {
		return 0
	}
	return float64(m.said) / float64(m.worded)
}

// reach is the share of the pattern's parts that matched before the one
// that failed: 0 where nothing on the screen starts the pattern.
func (m *Miss) reach() float64 {
	if len(m.Near) == 0 || m.Parts == 0 {
		return 0
	}
	return float64(m.Index-1) / float64(m.Parts)
}

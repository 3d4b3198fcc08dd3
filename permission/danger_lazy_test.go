package permission

import "testing"

// TestDangersResolveOnFirstUse: a set built from another (With,
// Excepting, In) reads its base's rules only when first used, and once:
// a session builds its set before it starts the program, and parsing the
// embedded file then would delay that start.
func TestDangersResolveOnFirstUse(t *testing.T) {
	reads := 0
	base := &Dangers{rules: func() []DangerRule {
		reads++
		return []DangerRule{{Name: "a", Reason: "A"}, {Name: "b", Reason: "B"}}
	}}
	set := base.With([]DangerRule{{Name: "b", Off: true}, {Name: "c", Reason: "C"}}).Excepting(nil).In("/work")
	if reads != 0 {
		t.Fatalf("the base was read %d times before the set was used", reads)
	}
	set.Ready()
	var names []string
	for _, r := range set.Rules() {
		names = append(names, r.Name)
	}
	if reads != 1 || len(names) != 2 || names[0] != "a" || names[1] != "c" {
		t.Fatalf("rules %v after %d reads of the base; want [a c] after 1", names, reads)
	}
}

// TestNoDangersIsReady: a policy with no dangerous-command set (nil: none)
// is made ready as any other, as the driver does when the program starts.
func TestNoDangersIsReady(t *testing.T) {
	p := New(Default, false)
	p.SetDangers(nil)
	p.Ready()
	if d := p.dangers.Judge("Bash", map[string]any{"command": "rm -rf /"}); len(d.Rules) != 0 {
		t.Fatalf("no set judged %+v", d)
	}
}

package unwrap

import "testing"

type thing interface{ Name() string }

type base struct{}

func (base) Name() string { return "base" }
func (base) Mark() string { return "marked" }

// wrapper hides base's Mark behind its own Name.
type wrapper struct{ thing }

func (w wrapper) Unwrap() thing { return w.thing }

type marker interface{ Mark() string }

// TestAs: an ability of the value under two wrappers is found; one that
// nothing in the chain has, and a nil chain, are not.
func TestAs(t *testing.T) {
	var v thing = wrapper{wrapper{base{}}}
	if m, ok := As[marker](v); !ok || m.Mark() != "marked" {
		t.Errorf("As[marker] through two wrappers = %v, %v", m, ok)
	}
	if _, ok := As[interface{ Missing() }](v); ok {
		t.Error("As found an ability nothing has")
	}
	if _, ok := As[marker](wrapper{nil}); ok {
		t.Error("As found an ability under a nil value")
	}
}

// markWrapper has the ability too, above the base that has it.
type markWrapper struct{ thing }

func (w markWrapper) Unwrap() thing { return w.thing }
func (markWrapper) Mark() string    { return "wrapper" }

// TestAll: every value of the chain with the ability, outermost first.
func TestAll(t *testing.T) {
	var v thing = wrapper{markWrapper{wrapper{base{}}}}
	var got []string
	for _, m := range All[marker](v) {
		got = append(got, m.Mark())
	}
	if len(got) != 2 || got[0] != "wrapper" || got[1] != "marked" {
		t.Errorf("All[marker] = %q, want [wrapper marked]", got)
	}
	if n := len(All[interface{ Missing() }](v)); n != 0 {
		t.Errorf("All found %d values of an ability nothing has", n)
	}
}

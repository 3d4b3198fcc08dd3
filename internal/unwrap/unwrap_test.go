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

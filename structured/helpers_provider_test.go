package structured

import (
	"testing"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/providers"
)

// prov is the registry's descriptor for name; tests name providers by
// the strings their fixtures are filed under.
func prov(name string) *providers.Provider {
	p, ok := providers.Lookup(name)
	if !ok {
		panic("test names an unknown provider " + name)
	}
	return p
}

// newTestTranslator is the JSON-mode translator of provider name, as Run
// would pick it for an unknown (current) version.
func newTestTranslator(tb testing.TB, name string, w *emit.Writer) *JSONTranslator {
	tb.Helper()
	p := prov(name)
	m, ok := p.ModeFor(providers.ModeJSON, "")
	if !ok {
		tb.Fatalf("%s has no JSON mode", name)
	}
	tr, err := NewTranslator(p, m, w, "default")
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

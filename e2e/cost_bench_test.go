package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// BenchmarkTurn times one yume-cli process per turn, as Yume starts them,
// for each CLI and mode: a fresh conversation's turn, and a turn resumed
// by --resume (the store read, the provider's own session loaded). Both
// run in a home the CLI has already started in once, so first-run setup
// is not counted. Run with make e2e-deps, then:
//
//	PATH=$PWD/.e2e/bin:$PATH YUME_E2E=1 go test -run '^$' -bench Turn -benchtime 5x ./e2e
func BenchmarkTurn(b *testing.B) {
	for _, provider := range providers {
		if _, err := os.Stat(filepath.Join(binDir(b), provider)); err != nil {
			continue
		}
		for _, mode := range []string{"pty", "json"} {
			h := newHome(b, provider)
			script := fakemodel.Script{Replies: []fakemodel.Reply{{Text: "Noted."}}}
			first := h.run(b, script, gui{}, "--mode", mode, "--prompt", "remember the word fig") // warm-up
			id := first.initSession()
			b.Run(provider+"/"+mode+"/fresh", func(b *testing.B) {
				for range b.N {
					h.run(b, script, gui{}, "--mode", mode, "--prompt", "hello")
				}
			})
			b.Run(provider+"/"+mode+"/resumed", func(b *testing.B) {
				for range b.N {
					h.run(b, script, gui{}, "--mode", mode, "--resume", id, "--prompt", "and again")
				}
			})
		}
	}
}

package heuristics

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/dialoggen"
	"github.com/yume-cli/yume-cli/vt"
)

// TestFindDialogShapes reads dialogs of the shapes unknown agents draw
// (internal/dialoggen: keys of their own, a pointer whatever the words,
// a colour alone, in a box or not; the command on a "$" row, an arrow or
// labelled row, the call's form, a box, wrapped or cut), under a banner
// and a transcript: each is found, the options that allow once and
// reject are the ones meant, keyed options keep their keys, and the
// command is exactly the one drawn (or marked cut). YUME_SEED replays.
func TestFindDialogShapes(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("YUME_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (YUME_SEED=%d replays it)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range 600 {
		g := dialoggen.Generate(r, dialoggen.Options{})
		screen := vt.NewScreen(g.Cols, 60)
		_, _ = screen.Write([]byte(g.Render(g.First)))
		dl, why := FindDialog(screen)
		bad := func(what string, got, want any) {
			t.Errorf("case %d: %s = %v, want %v; screen:\n%s", i, what, got, want, screenDump(screen))
		}
		switch {
		case dl == nil:
			bad("dialog", why, "one")
		case optionLabel(dl.Options[dl.Allow]) != optionLabel(g.Options[g.Allow]):
			bad("allow", dl.Options[dl.Allow], g.Options[g.Allow])
		case dl.Reject < 0 || optionLabel(dl.Options[dl.Reject]) != optionLabel(g.Options[g.Reject]):
			bad("reject", dl.Reject, g.Options[g.Reject])
		case (g.Keys != nil) != (dl.Keys != nil):
			bad("keys", dl.Keys, g.Keys)
		case dl.Command != g.Command || dl.Cut != g.Cut:
			bad("command", strconv.Quote(dl.Command)+" cut "+strconv.FormatBool(dl.Cut), strconv.Quote(g.Command)+" cut "+strconv.FormatBool(g.Cut))
		}
		if t.Failed() {
			return
		}
	}
}

func screenDump(v View) string {
	var b strings.Builder
	for r := range v.Rows() {
		b.WriteString("|" + v.Line(r) + "\n")
	}
	return strings.TrimRight(b.String(), "|\n")
}

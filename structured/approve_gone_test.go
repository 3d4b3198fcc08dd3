package structured

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
)

// TestNothingApprovedOnceTheGUIIsGone: what would allow a call (auto
// mode, the GUI's answer given before the question) denies it once the
// GUI has gone; with the GUI there, it allows.
func TestNothingApprovedOnceTheGUIIsGone(t *testing.T) {
	input := map[string]any{"command": "make"}
	cases := []struct {
		name  string
		mode  permission.Mode
		early bool // the GUI approved before the agent asked
	}{
		{"auto mode", permission.Auto, false},
		{"an approval given early", permission.Default, true},
	}
	for _, c := range cases {
		for _, gone := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/gone=%v", c.name, gone), func(t *testing.T) {
				w := emit.NewWriter(io.Discard, emit.Config{GUIGone: func() bool { return gone }})
				if err := w.ToolUse("toolu_1", "Bash", input); err != nil {
					t.Fatal(err)
				}
				done := make(chan struct{})
				defer close(done)
				a := newApprover(w, c.mode, permission.FallbackGuard, nil, nil, func() {}, done)
				if c.early {
					a.policy.Keep("toolu_1", permission.Answer{Allow: true})
				}
				ans, err := a.ask(context.Background(), "toolu_1", "Bash", input)
				if err != nil {
					t.Fatal(err)
				}
				if ans.Allow == gone || gone && ans.Message != permission.GUIGone {
					t.Errorf("answer %+v with the GUI gone %v", ans, gone)
				}
			})
		}
	}
}

package heuristics

import (
	"fmt"
	"testing"

	"github.com/yume-cli/yume-cli/vt"
)

// TestRedrawnDialog: a dialog found by its shape and drawn again lower,
// reading the same, is the question it was (StillShows says no: its rows
// moved); drawn with another command or other options it is not.
func TestRedrawnDialog(t *testing.T) {
	const dialog = " Bash command\n\n   %s\n\n Do you want to proceed?\n ❯ 1. Yes\n   2. No\n"
	draw := func(above, command string) *vt.Screen { return screenText(80, 12, above+fmt.Sprintf(dialog, command)) }
	e := NewEngine(mustProfile(t, testProfile))
	first := draw("", "ls -la")
	d, _ := e.Dialog(first)
	if d == nil {
		t.Fatal("no dialog found by its shape")
	}
	for _, c := range []struct {
		name  string
		now   *vt.Screen
		same  bool
		still bool
	}{
		{"unchanged", draw("", "ls -la"), true, true},
		{"moved down", draw("working…\n", "ls -la"), true, false},
		{"another command", draw("", "rm -rf x"), false, false},
		{"another option", screenText(80, 12, fmt.Sprintf(" Bash command\n\n   %s\n\n Do you want to proceed?\n ❯ 1. Yes, always\n   2. No\n", "ls -la")), false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := e.StillShows(c.now, d); got != c.still {
				t.Errorf("StillShows = %v, want %v", got, c.still)
			}
			now := e.Redrawn(c.now, d)
			if (now != nil) != c.same {
				t.Fatalf("Redrawn = %+v, want the same question: %v", now, c.same)
			}
			if now != nil {
				if now.Command != "ls -la" || !e.StillShows(c.now, now) {
					t.Errorf("Redrawn read %q, or does not still show on its own screen", now.Command)
				}
				if again, _ := e.Dialog(c.now); again != nil {
					t.Errorf("the redrawn question fires again: %+v", again)
				}
			}
		})
	}
	if e.Redrawn(first, nil) != nil {
		t.Error("Redrawn(nil) is a question")
	}
}

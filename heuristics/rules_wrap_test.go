package heuristics

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestWrappedCommandScreens: screens of the people corpus's second pass
// (recordings/testdata/people, 100 columns): a command the TUI wrapped is
// read as one line, with no indent; a heredoc keeps its lines; a folded
// output is read without its fold marker, and says it hid lines.
func TestWrappedCommandScreens(t *testing.T) {
	long := `printf 'alpha\nbeta\ngamma\ndelta\nepsilon\n' > notes-copy.txt && wc -c notes-copy.txt && cat notes-copy.txt && echo the notes are copied to notes-copy.txt for the person`
	heredoc := "cat > notes-copy.txt <<'EOF'\nalpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega\none\nEOF\nwc -l notes-copy.txt && cat notes-copy.txt && ls"
	for _, c := range []struct {
		profile, screen string
		want            []tuiDet
		hidden          int // the output's folded lines
	}{
		{"codex", "codex-wrapped-dialog", []tuiDet{{"command-permission", map[string]string{
			"command": long, "description": "Copy the notes", "prompt": "Would you like to run the following command?"}}}, 0},
		{"codex", "codex-heredoc-dialog", []tuiDet{{"command-permission", map[string]string{
			"command": heredoc, "description": "Copy the notes", "prompt": "Would you like to run the following command?"}}}, 0},
		{"codex", "codex-folded-output", []tuiDet{
			{"command-output", map[string]string{"output": "delta\nepsilon\nthe notes are copied to notes-copy.txt for the person"}},
			{"turn-done", map[string]string{"text": "The notes are copied."}},
		}, 4},
		{"claude", "claude-wrapped-dialog", []tuiDet{{"bash-permission", map[string]string{
			"command": long, "description": "Copy the notes", "prompt": "Do you want to proceed?"}}}, 0},
		{"claude", "claude-heredoc-dialog", []tuiDet{{"bash-permission-dashed", map[string]string{
			"command": heredoc, "description": "Copy the notes", "prompt": "Do you want to proceed?"}}}, 0},
	} {
		t.Run(c.screen, func(t *testing.T) {
			p, err := LoadProfile(c.profile)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join("testdata", "tui", c.screen+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			v := screenOf(100, 40, string(data))
			v.hidden = true
			e := NewEngine(p)
			var got []tuiDet
			hidden := 0
			for i := 0; i < 10; i++ {
				d, _ := e.Evaluate(v, true)
				if d == nil {
					break
				}
				got = append(got, tuiDet{d.Rule.Name, groupsOf(d)})
				hidden += d.Hidden
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("detections on %s:\n got %q\nwant %q", c.screen, got, c.want)
			}
			if hidden != c.hidden {
				t.Errorf("%d lines folded away, want %d", hidden, c.hidden)
			}
		})
	}
}

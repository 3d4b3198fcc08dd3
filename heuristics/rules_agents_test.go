package heuristics

import "testing"

// Screens of opencode 1.18.34, Kilo Code CLI 7.7.9 and Qwen Code 0.24.4 as
// yume-cli saw them at 120x40, offline against the fake model.

func TestOpenCodeScreens(t *testing.T) {
	runTUICases(t, "opencode", []tuiCase{
		{"opencode-dialog", []tuiDet{{"shell-permission", map[string]string{
			"command": tuiCommand40, "description": "Shell command", "prompt": "Permission required"}}}},
		{"opencode-running", nil},
		// The output as drawn: its first rows, then "…".
		{"opencode-done", []tuiDet{
			{"shell-output", map[string]string{"output": "wrote made.txt\n1\n2\n3\n4\n5\n6\n7\n8\n9\n…"}},
			{"turn-done", map[string]string{"text": "All done."}},
		}},
		{"opencode-edit", []tuiDet{{"write-permission", map[string]string{"prompt": "Permission required"}}}},
		// The same question before its diff rows are drawn: not whole yet.
		{"opencode-edit-undrawn", nil},
		{"opencode-wrote", []tuiDet{{"turn-done", map[string]string{"text": "Written."}}}},
	})
}

func TestKiloScreens(t *testing.T) {
	runTUICases(t, "kilo", []tuiCase{
		// Its "#" row is the model's description of the call.
		{"kilo-dialog", []tuiDet{{"shell-permission", map[string]string{
			"command": tuiCommand40, "description": "make the file", "prompt": "Permission required"}}}},
		{"kilo-reject", []tuiDet{{"reject-reason", map[string]string{"prompt": "Tell Kilo what to do differently"}}}},
	})
}

func TestQwenScreens(t *testing.T) {
	runTUICases(t, "qwen", []tuiCase{
		{"qwen-dialog", []tuiDet{{"shell-permission", map[string]string{
			"command": tuiCommand40, "prompt": "Allow execution of: 'printf, seq'?"}}}},
		{"qwen-running", nil},
		{"qwen-done", []tuiDet{
			{"shell-output", map[string]string{"output": "36\n37\n38\n39\n40"}},
			{"turn-done", map[string]string{"text": "All done."}},
		}},
		// In yolo mode the input box starts "*".
		{"qwen-yolo-done", []tuiDet{
			{"shell-output", map[string]string{"output": "36\n37\n38\n39\n40"}},
			{"turn-done", map[string]string{"text": "All done."}},
		}},
		// After Esc: "- Shell …" over the idle box; the driver ends a
		// denied turn there by itself.
		{"qwen-denied", nil},
	})
}

// tuiCommand40 is the command the agents' screens show.
const tuiCommand40 = `printf 'alpha\nbeta\n' > made.txt && echo wrote made.txt && seq 1 40`

// TestOpenCodeReady: opencode's and Kilo's TUIs are at their input box
// with either footer — before the model reported tokens ("tab agents")
// and after, when their count takes its place — and busy while "esc
// interrupt" shows (the footer is there then too).
func TestOpenCodeReady(t *testing.T) {
	for _, name := range []string{"opencode", "kilo"} {
		p, err := LoadProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			footer      string
			ready, busy bool
		}{
			{"   /home/u/ws                                     tab agents  ctrl+p commands", true, false},
			{"   /home/u/ws                                           9.5K  ctrl+p commands", true, false},
			{"   ⬝⬝⬝⬝⬝⬝⬝■  esc interrupt                                   9.5K  ctrl+p commands", true, true},
			{"   /home/u/ws", false, false},
		} {
			screen := "  ┃  make the file\n\n     ▣  Build · m\n" + c.footer + "\n"
			if got := p.Ready.MatchString(screen); got != c.ready {
				t.Errorf("%s %q: ready %v, want %v", name, c.footer, got, c.ready)
			}
			if got := p.Busy.MatchString(screen); got != c.busy {
				t.Errorf("%s %q: busy %v, want %v", name, c.footer, got, c.busy)
			}
		}
	}
}

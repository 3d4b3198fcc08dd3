package heuristics

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The screens under testdata/tui were captured from the real TUIs (Copilot
// CLI 1.0.102, Claude Code 2.1.197, Gemini CLI 0.61.0, Codex 0.169.0) as
// the driver's screen model drew them during the live runs of
// ptyhost/tui_live_test.go (YUME_TUI_TRACE_DIR), machine paths replaced by
// /home/user. They are 120x40.

// tuiDet is one detection a profile must make: the rule and its groups.
type tuiDet struct {
	rule   string
	groups map[string]string
}

// tuiCase is one captured screen and every detection the profile makes on
// it, in order (an engine fires each prompt once, so evaluating until
// nothing fires lists them all).
type tuiCase struct {
	screen string // testdata/tui/<screen>.txt
	want   []tuiDet
}

// runTUICases checks each captured screen against the named profile.
func runTUICases(t *testing.T, profile string, cases []tuiCase) {
	t.Helper()
	p, err := LoadProfile(profile)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.screen, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "tui", c.screen+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			v := screenOf(120, 40, string(data))
			v.hidden = true // the TUIs hide the cursor and draw their own
			e := NewEngine(p)
			var got []tuiDet
			for i := 0; i < 10; i++ {
				d, _ := e.Evaluate(v, true)
				if d == nil {
					break
				}
				got = append(got, tuiDet{d.Rule.Name, groupsOf(d)})
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("detections on %s:\n got %v\nwant %v", c.screen, got, c.want)
			}
		})
	}
}

// TestTUIScreensFireNothingTwice re-evaluates every captured screen: after
// the detections, a second pass over the same screen fires nothing.
func TestTUIScreensFireNothingTwice(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "tui", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no captured screens under testdata/tui")
	}
	for _, f := range files {
		profile, _, _ := strings.Cut(filepath.Base(f), "-")
		p, err := LoadProfile(profile)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		data, _ := os.ReadFile(f)
		e := NewEngine(p)
		for i := 0; i < 10; i++ {
			if d, _ := e.Evaluate(screenOf(120, 40, string(data)), true); d == nil {
				break
			}
		}
		if d, _ := e.Evaluate(screenOf(120, 40, string(data)), true); d != nil {
			t.Errorf("%s: rule %s fired twice on one screen", f, d.Rule.Name)
		}
	}
}

// TestTUIReady: each TUI profile's ready regex (when a typed prompt may
// go in) matches its idle input box and not a screen with a dialog up.
func TestTUIReady(t *testing.T) {
	tests := []struct {
		screen string
		ready  bool
	}{
		{"copilot-done", true}, {"copilot-dialog", false}, {"copilot-loading", false},
		{"claude-ready", true}, {"claude-done", true}, {"claude-dialog", false},
		{"gemini-ready", true}, {"gemini-dialog", false},
		{"codex-done", true}, {"codex-dialog", false}, {"codex-migration", false},
	}
	for _, tt := range tests {
		profile, _, _ := strings.Cut(tt.screen, "-")
		p, err := LoadProfile(profile)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join("testdata", "tui", tt.screen+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Ready.MatchString(string(data)); got != tt.ready {
			t.Errorf("%s: ready = %v, want %v", tt.screen, got, tt.ready)
		}
	}
}

package heuristics

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Keys that arrive together are not always read as keys: an Ink TUI takes
// one read's bytes as one input, so Down, Down and Enter in one write
// moved nothing and chose the highlighted "1. Yes" (Claude Code 2.1.197).
// A plan types an answer one key at a time. Where the keys move a menu's
// highlight and then choose, the plan is a walk to the option they
// choose: after every key the screen is read again, and Enter goes only
// when the highlight is on that option.

// Plan is how an answer's keys go, one key at a time.
type Plan struct {
	// Walk: move the highlight of Menu to Target, then type Steps (the
	// Enter that chooses it).
	Walk bool
	// Menu is the menu as read when the plan was made; Target the option
	// to choose, as drawn.
	Menu   *Choices
	Target string
	// Steps are the keys typed one at a time, in order (after the walk).
	Steps []Step
	// moves are the keys a walk moves with: Down/Up, Right/Left or Tab/S-Tab.
	fwd, back string
}

// Step is one key of a plan.
type Step struct {
	part keyPart
	// prompt is the text <Prompt> stands for, typed as one step.
	prompt *Keys
}

// Name is the step's key in the notation ("<Down>", "y").
func (s Step) Name() string {
	if s.part.name != "" {
		return "<" + s.part.name + ">"
	}
	return s.part.text
}

// Text reports a literal character: a program that reads lines echoes it.
func (s Step) Text() bool { return s.part.name == "" }

// Enter reports the key that chooses the highlighted option.
func (s Step) Enter() bool { return s.part.name == "Enter" }

// Bytes are the step's key as typed now on v (arrows follow v's cursor mode).
func (s Step) Bytes(v View) ([]byte, error) {
	if s.prompt != nil {
		return s.prompt.Encode(v)
	}
	return Keys{parts: []keyPart{s.part}}.Encode(v)
}

// Move is the key that moves the highlight one option toward Target
// (forward: down or right), in the walk's own keys.
func (p *Plan) Move(v View, forward bool) Step {
	name := p.back
	if forward {
		name = p.fwd
	}
	return Step{part: keyPart{name: name}}
}

// moveKeys are the keys that move a highlight, and the direction each
// moves it.
var moveKeys = map[string]int{"Down": 1, "Right": 1, "Tab": 1, "Up": -1, "Left": -1, "S-Tab": -1}

// acrossAxis tells the arrows that move along a row (true) from those
// that move along a column.
var acrossAxis = map[string]bool{"Left": true, "Right": true, "Up": false, "Down": false}

// PlanAnswer makes the plan for keys k on the screen v.
func PlanAnswer(k Keys, v View) (*Plan, error) {
	if k.sel != nil {
		return planSelect(k, v)
	}
	if p, ok, err := planWalk(k, v); ok || err != nil {
		return p, err
	}
	p := &Plan{}
	for _, part := range k.parts {
		switch {
		case part.name == promptKey:
			pk := Keys{parts: []keyPart{part}, prompt: k.prompt, typed: k.typed, newline: k.newline}
			p.Steps = append(p.Steps, Step{part: part, prompt: &pk})
		case part.name != "":
			p.Steps = append(p.Steps, Step{part: part})
		default:
			for _, r := range part.text {
				p.Steps = append(p.Steps, Step{part: keyPart{text: string(r)}})
			}
		}
	}
	return p, nil
}

// planSelect walks to the one option select:REGEX names.
func planSelect(k Keys, v View) (*Plan, error) {
	c, ok := ReadChoices(v)
	if !ok {
		return nil, fmt.Errorf("select:%s: no menu with a highlighted option on screen", k.sel)
	}
	i := c.Index(k.sel.MatchString)
	if i < 0 {
		return nil, fmt.Errorf("select:%s: not exactly one option matches; options are %q", k.sel, c.Options)
	}
	return newWalk(c, i, false), nil
}

// planWalk reads keys that only move a highlight and then press Enter
// (Enter alone included) as a walk to the option they would reach on
// the menu on screen. ok is false for other keys, or where no menu is
// read: they go one by one.
func planWalk(k Keys, v View) (*Plan, bool, error) {
	n := len(k.parts)
	if n == 0 || k.parts[n-1].name != "Enter" {
		return nil, false, nil
	}
	net, fwd := 0, ""
	for _, part := range k.parts[:n-1] {
		d, ok := moveKeys[part.name]
		if !ok {
			return nil, false, nil
		}
		net += d
		if fwd == "" {
			fwd = part.name
		}
	}
	c, ok := ReadChoices(v)
	if !ok {
		return nil, false, nil
	}
	if across, arrow := acrossAxis[fwd]; arrow && across != c.Horizontal {
		return nil, false, nil // arrows across the menu's own axis: not a walk on it
	}
	target := c.Highlight + net
	if target < 0 || target >= len(c.Options) {
		return nil, true, fmt.Errorf("keys %s move the highlight from option %d to %d, but the menu has %d options %q",
			k, c.Highlight+1, target+1, len(c.Options), c.Options)
	}
	// Tab: the program's own way round its options.
	return newWalk(c, target, fwd == "Tab" || fwd == "S-Tab"), true, nil
}

// newWalk walks c's highlight to option target with arrows along its axis
// (or Tab and Shift-Tab), then presses Enter.
func newWalk(c *Choices, target int, tabs bool) *Plan {
	fwd, back := "Down", "Up"
	switch {
	case tabs:
		fwd, back = "Tab", "S-Tab"
	case c.Horizontal:
		fwd, back = "Right", "Left"
	}
	return &Plan{Walk: true, Menu: c, Target: c.Options[target], fwd: fwd, back: back,
		Steps: []Step{{part: keyPart{name: "Enter"}}}}
}

// String shows the plan for traces: "walk to \"3. No\" then <Enter>" or
// the keys one by one.
func (p *Plan) String() string {
	var names []string
	for _, s := range p.Steps {
		names = append(names, s.Name())
	}
	keys := strings.Join(names, " ")
	if p.Walk {
		return fmt.Sprintf("walk the highlight to %q, then %s", p.Target, keys)
	}
	if utf8.RuneCountInString(keys) == 0 {
		return "no keys"
	}
	return "one at a time: " + keys
}

// Chooses reports keys that choose a menu option: select:, or keys that
// only move a highlight and then press Enter.
func Chooses(k Keys) bool {
	if k.sel != nil {
		return true
	}
	n := len(k.parts)
	if n < 2 || k.parts[n-1].name != "Enter" {
		return false
	}
	for _, p := range k.parts[:n-1] {
		if _, ok := moveKeys[p.name]; !ok {
			return false
		}
	}
	return true
}

package heuristics

import (
	"strings"
	"testing"
)

// TestPlanAnswer: keys that move a highlight and choose become a walk to
// the option they reach on the menu drawn; select: walks to the option it
// names; other keys go one by one; keys that overshoot the menu are an
// error, never typed.
func TestPlanAnswer(t *testing.T) {
	numbered := " Do you want to proceed?\n ❯ 1. Yes\n   2. Yes, and always allow\n   3. No\n"
	horizontal := " Allow this command?\n \x1b[7mAllow once\x1b[0m   Allow always   Reject\n"
	tests := []struct {
		name, screen, keys string
		want               string // Plan.String(), or "error: …"
	}{
		{"arrows to No", numbered, "<Down><Down><Enter>", `walk the highlight to "3. No", then <Enter>`},
		{"Enter on the highlight", numbered, "<Enter>", `walk the highlight to "1. Yes", then <Enter>`},
		{"select by words", numbered, `select:No$`, `walk the highlight to "3. No", then <Enter>`},
		{"past the last option", numbered, "<Down><Down><Down><Enter>", "error: move the highlight from option 1 to 4"},
		{"select matching two", numbered, `select:Yes`, "error: not exactly one option matches"},
		{"row of choices", horizontal, "<Right><Right><Enter>", `walk the highlight to "Reject", then <Enter>`},
		{"arrows across the row", horizontal, "<Down><Enter>", "one at a time: <Down> <Enter>"},
		{"literal keys", numbered, "n<Enter>", "one at a time: n <Enter>"},
		{"no menu", "Remove notes.txt? [y/N]\n", "<Down><Enter>", "one at a time: <Down> <Enter>"},
		{"Esc", numbered, "<Esc>", "one at a time: <Esc>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := screenText(80, 10, tt.screen)
			p, err := PlanAnswer(MustParseKeys(tt.keys), v)
			got := ""
			if err != nil {
				got = "error: " + err.Error()
			} else {
				got = p.String()
			}
			if !strings.HasPrefix(got, tt.want) && !strings.Contains(got, strings.TrimPrefix(tt.want, "error: ")) {
				t.Errorf("PlanAnswer(%s) = %s, want %s", tt.keys, got, tt.want)
			}
			if strings.HasPrefix(tt.want, "error") != (err != nil) {
				t.Errorf("PlanAnswer(%s): error %v, want one: %v", tt.keys, err, strings.HasPrefix(tt.want, "error"))
			}
		})
	}
}

// TestOptionMeaning reads what options mean from their words.
func TestOptionMeaning(t *testing.T) {
	for option, want := range map[string]Meaning{
		"1. Yes": MeansAllow, "2. Yes, and don't ask again": MeansAllow, "Allow once": MeansAllow,
		"3. No": MeansReject, "4. No, and tell Claude what to do differently (esc)": MeansReject,
		"Reject": MeansReject, "5. Quit": MeansReject, "Exit": MeansReject, "Cancel": MeansReject,
		"Explain command": MeansOther, "2. Revise command": MeansOther,
	} {
		if got := OptionMeaning(option); got != want {
			t.Errorf("OptionMeaning(%q) = %v, want %v", option, got, want)
		}
	}
}

// TestReadChoicesNotTheQuestion: a question that starts with a choice
// word above a row of choices is not an option of a list ("Allow this
// command?" over "Allow once   Allow always   Reject", the first one
// highlighted: read as the row, not as a two-option list).
func TestReadChoicesNotTheQuestion(t *testing.T) {
	v := screenText(80, 10, " Allow this command?\n \x1b[7mAllow once\x1b[0m   Allow always   Reject\n")
	c, ok := ReadChoices(v)
	if !ok || !c.Horizontal || len(c.Options) != 3 || c.Highlight != 0 {
		t.Fatalf("ReadChoices = %+v, %v; want the row of three, the first highlighted", c, ok)
	}
}

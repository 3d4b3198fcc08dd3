package heuristics

import (
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/vt"
)

// surveySelect is gh copilot's menu as survey/v2's SelectQuestionTemplate
// prints it (select.go): "? " question, two blanks, the cyan hint, then one
// row per option, the focused one "> " (cyan+b), the others "  ".
const surveySelect = `Suggestion:

  find . -type f -size +100M

? Select an option  [Use arrows to move, type to filter]
> Copy command to clipboard
  Explain command
  Execute command
  Revise command
  Rate response
  Exit
`

func TestKeysSelectOption(t *testing.T) {
	const up, down = "\x1b[A", "\x1b[B"
	styled := func() *fakeView {
		// No pointer glyph: the highlight is reverse video on row 3.
		v := screenOf(40, 10, "Pick a colour:\n  red\n  green\n  blue\n  black\n")
		return v.styleRow(3, vt.Style{Reverse: true})
	}
	tests := []struct {
		name    string
		view    *fakeView
		keys    string
		want    string
		wantErr string
	}{
		{"survey down two", screenOf(80, 24, surveySelect), "select:^Execute command$", down + down + "\r", ""},
		{"survey already there", screenOf(80, 24, surveySelect), "select:^Copy", "\r", ""},
		{"survey to last", screenOf(80, 24, surveySelect), "select:^Exit$", strings.Repeat(down, 5) + "\r", ""},
		{"inquirer up", screenOf(60, 10, "? Pick one (Use arrow keys)\n  alpha\n  beta\n❯ gamma\n"), "select:^alpha", up + up + "\r", ""},
		{"style highlight", styled(), "select:^green", up + "\r", ""},
		{"style highlight down", styled(), "select:^black", down + "\r", ""},
		{"colour highlight", screenOf(40, 10, "  one\n  two\n  three\n").styleRow(1, vt.Style{FG: 7}), "select:three", down + "\r", ""},
		{"no target", screenOf(80, 24, surveySelect), "select:^Delete", "", `no menu option matches; options are ["Copy command to clipboard"`},
		{"two targets", screenOf(80, 24, surveySelect), "select:command", "", "4 options match"},
		{"no highlight", screenOf(40, 10, "  one\n  two\n  three\n"), "select:two", "", "no highlighted menu option"},
		{"no menu", screenOf(40, 10, "$ ls\n\nfile\n"), "select:file", "", "no menu on screen"},
		{"two pointers", screenOf(40, 10, "> one\n> two\n"), "select:two", "", "no highlighted menu option"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MustParseKeys(tt.keys).Encode(tt.view)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Encode = %q, %v; want error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("Encode = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestKeysSelectOptionAppCursor(t *testing.T) {
	v := screenOf(80, 24, surveySelect)
	v.appCursor = true
	got, err := MustParseKeys("select:^Execute").Encode(v)
	if err != nil || string(got) != "\x1bOB\x1bOB\r" {
		t.Fatalf("Encode = %q, %v; want ESC O B twice then CR", got, err)
	}
}

// The live menu is the bottom one: an earlier block on screen with its own
// pointer must not be chosen.
func TestKeysSelectOptionBottomMenu(t *testing.T) {
	v := screenOf(80, 24, "> old one\n  old two\n\n? Now\n  new one\n> new two\n")
	got, err := MustParseKeys("select:one").Encode(v)
	if err != nil || string(got) != "\x1b[A\r" {
		t.Fatalf("Encode = %q, %v; want one Up on the bottom menu", got, err)
	}
}

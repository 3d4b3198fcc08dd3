// Package dialoggen draws permission dialogs of shapes no agent drew yet,
// from a seed: the classes unknown agents were seen to draw (options that
// name their own keys, a menu marked by a pointer whatever its words, a
// highlight drawn by a colour alone, inside or outside a box; the command
// on a "$" row, an arrow row under a title, a labelled row, the tool
// call's own form, in a box, wrapped or cut short) and their mixes, under
// a banner and a transcript. The heuristics test reads them off a screen;
// keytui draws them live, so the driver is tested on them end to end.
package dialoggen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Shape is one generated dialog and what a reader must find in it.
type Shape struct {
	Cols int
	// Above are the rows over the options (banner, transcript, frame top,
	// title, command, question), Below the rows under them, all framed.
	Above, Below []string
	// Options are the options' labels as drawn; Keys each one's own key
	// ("" none); Row: the options sit on one row.
	Options []string
	Keys    []string
	Row     bool
	// Highlight is how the highlighted option is drawn: "pointer" (a glyph
	// before it), "bg" (a background colour), "panel" (a colour on a
	// panel's colour); Pointer is that glyph; First the one highlighted first.
	Highlight, Pointer string
	First              int
	// Frame is the box around the dialog's rows: "", "box" or "bar";
	// Indent the blanks before each row inside it; Width the cells a row's
	// text may take (a TUI leaves as many free at the right as it indents).
	Frame  string
	Indent int
	Width  int
	// Command is the command a reader must find; Cut: the dialog shows it
	// cut short and nowhere whole (Command is what it shows, Whole what
	// runs).
	Command, Whole string
	Cut            bool
	// Allow and Reject are the options that allow once and reject.
	Allow, Reject int
	// Output is how the program shows the command's output after it ran:
	// "bullet" ("⏺ Bash(cmd)" over "⎿ out"), "dollar" ("$ cmd" over its
	// output), "star" ("* run_commands(cmd)"), "none" (a summary only).
	Output string
}

// Options for Generate: Runnable draws commands that run here and print a
// line the shell computes (RESULT-42), for live tests; Cols, when set, is
// the terminal's width (else one is drawn).
type Options struct {
	Runnable bool
	Cols     int
}

// Full is the command that runs when the dialog's answer allows it.
func (s Shape) Full() string { return s.Whole }

// Generate draws a shape from r.
func Generate(r *rand.Rand, o Options) Shape {
	s := Shape{Cols: 80 + r.IntN(50), Frame: pick(r, "", "", "box", "bar"), Indent: r.IntN(3)}
	if o.Cols > 0 {
		s.Cols = o.Cols
	}
	// Where a TUI wraps a row: it leaves as many cells free at the right
	// as it indents at the left (a box: its room, one cell inside each
	// side); a row it fills exactly reads as a word broken there, so a
	// command that fills one is drawn again (body).
	switch s.Frame {
	case "box":
		s.Indent, s.Width = 0, s.Cols-4 // "│ " … " │"
	case "bar":
		s.Width = s.Cols - 5 - 2*s.Indent // "┃  " and its mirror
	default:
		s.Width = s.Cols - 2*s.Indent
	}
	s.Output = pick(r, "bullet", "dollar", "star", "none")
	var above []string
	above = append(above, banner(r)...)
	above = append(above, transcript(r)...)
	var body []string
	for ok := false; !ok; {
		s.Command, s.Cut = command(r, o.Runnable, s.Width), false
		s.Whole = s.Command
		body, ok = s.body(r)
	}
	s.options(r)
	if s.Frame == "box" {
		above = append(above, "╭"+strings.Repeat("─", s.Cols-2)+"╮")
	}
	for _, b := range body {
		above = append(above, s.framed(b))
	}
	s.Above = above
	if r.IntN(2) == 0 {
		s.Below = append(s.Below, s.framed(""), s.framed(pick(r, "↑↓ navigate • Enter select • Esc cancel", "Press Escape to cancel", "enter confirm  esc cancel")))
	}
	if s.Frame == "box" {
		s.Below = append(s.Below, "╰"+strings.Repeat("─", s.Cols-2)+"╯")
	}
	if r.IntN(2) == 0 {
		s.Below = append(s.Below, "", pick(r, " ⏸ auto-edit: off (shift + tab)  ≋ m", " m (9,469) $0.00            ○ Plan ● Act (Tab)", " ▶ normal mode on"))
	}
	return s
}

func pick(r *rand.Rand, xs ...string) string { return xs[r.IntN(len(xs))] }

// framed puts a dialog row in the shape's frame, at its indent.
func (s *Shape) framed(row string) string {
	if row != "" {
		row = strings.Repeat(" ", s.Indent) + row
	}
	switch s.Frame {
	case "box":
		return "│ " + pad(row, s.Cols-4) + " │"
	case "bar":
		return "┃  " + row
	}
	return row
}

// banner is a logo and tips, or nothing: no question, no command.
func banner(r *rand.Rand) []string {
	switch r.IntN(3) {
	case 0:
		return []string{"", "   ██████╗ ███╗   ██╗███████╗", "  ██╔═══██╗████╗  ██║██╔════╝", "  ╚██████╔╝██║ ╚████║███████╗", "", "  Tips: ask questions, edit files, run commands.", ""}
	case 1:
		return []string{" ▐▛███▜▌   Agent v9.9.9", "▝▜█████▛▘  fake · local", ""}
	}
	return nil
}

// transcript is what an agent drew before it asks: the user's prompt
// echoed, the model's words.
func transcript(r *rand.Rand) []string {
	var rows []string
	if r.IntN(3) > 0 {
		rows = append(rows, pick(r, " ❯ make the file", "  > make the file", "● make the file"), "")
	}
	if r.IntN(2) == 0 {
		rows = append(rows, pick(r, " * Running it.", "  ⏺ Running it.", "● I will run it now."), "")
	}
	return rows
}

// body is the dialog's rows above its options: a title, the command
// where it draws it, the question.
func (s *Shape) body(r *rand.Rand) ([]string, bool) {
	var rows []string
	title := pick(r, "Permission required", "Cline needs permission", "Tool call", "⚒ execute_bash", "Shell")
	question := pick(r, "Do you want to proceed?", "Approve tool call?", "Run this command?", "Would you like to continue?", "Allow this action?")
	placement := pick(r, "dollar", "arrow", "label", "call", "box", "cut")
	if placement == "cut" && cells(s.Command) <= s.Width-len("Command: ") {
		placement = "label" // too short to be cut
	}
	w, ok := s.Width, true
	wrap := func(lead, text string, width int) []string {
		rows := wrapLead(lead, text, width)
		for _, row := range rows[:len(rows)-1] {
			ok = ok && cells(row) < width
		}
		return rows
	}
	switch placement {
	case "dollar":
		rows = append(rows, title, "")
		rows = append(rows, wrap("$ ", s.Command, w)...)
		rows = append(rows, "", question)
	case "arrow": // a menu titled for the command, the command under it
		rows = append(rows, question)
		rows = append(rows, wrap(pick(r, "↳ ", "→ "), s.Command, w)...)
	case "label":
		rows = append(rows, title)
		rows = append(rows, wrap(pick(r, "Command: ", "⎿ Command: ", "Will run: "), s.Command, w)...)
		rows = append(rows, "", question)
	case "call":
		rows = append(rows, wrap(pick(r, "⏺ Run bash command(", "Bash(", "● Shell("), s.Command+")", w)...)
		rows = append(rows, "", question)
	case "box":
		bw := w - 4
		rows = append(rows, title, "╭"+strings.Repeat("─", bw+2)+"╮")
		for _, l := range wrap("", s.Command, bw) {
			rows = append(rows, "│ "+pad(l, bw)+" │")
		}
		rows = append(rows, "╰"+strings.Repeat("─", bw+2)+"╯", question)
	case "cut":
		lead := "Command: "
		shown := s.Command[:w-cells(lead)-1] + "…" // commands are ASCII
		rows = append(rows, title, lead+shown, "", question)
		s.Command, s.Cut = shown, true
	}
	return append(rows, ""), ok
}

// options draws the option labels, their keys and the highlight.
func (s *Shape) options(r *rand.Rand) {
	allow := pick(r, "Yes", "Allow once", "Approve", "Continue (tab)", "✓ Yes, execute this tool", "Run it", "Proceed")
	wide := pick(r, "Yes, and don't ask again this session", "Always allow", "Continue + don't ask again (shift+tab)")
	reject := pick(r, "No", "Reject", "Deny", "✗ No, cancel execution", "No, and tell the agent what to do differently (esc)", "Cancel")
	labels := []string{allow, reject}
	s.Allow, s.Reject = 0, 1
	if r.IntN(2) == 0 {
		labels, s.Reject = []string{allow, wide, reject}, 2
	}
	switch kind := pick(r, "keyed-row", "keyed-col", "pointer", "numbered-bg", "row-panel"); kind {
	case "keyed-row", "keyed-col":
		keys := []string{"y", "a", "n"}
		plain := []string{"Approve", "Always", "Deny"}
		if len(labels) == 2 {
			keys, plain = []string{"y", "n"}, []string{"Approve", "Deny"}
		}
		form := pick(r, "[%s] %s", "(%s) %s")
		for i := range labels {
			labels[i] = fmt.Sprintf(form, keys[i], plain[i])
		}
		s.Keys, s.Row = keys[:len(labels)], kind == "keyed-row"
		s.Highlight = pick(r, "none", "panel")
		if !s.Row && s.Highlight == "panel" {
			s.Highlight = "none"
		}
	case "pointer":
		s.Highlight, s.Pointer = "pointer", pick(r, ">", "❯", "›", "▸")
	case "numbered-bg":
		for i := range labels {
			labels[i] = fmt.Sprintf("%d. %s", i+1, labels[i])
		}
		s.Highlight = "bg"
	case "row-panel":
		s.Row, s.Highlight = true, "panel"
		if len(labels) == 3 {
			labels[1] = "Allow always"
		}
		labels[0], labels[len(labels)-1] = "Allow once", "Reject"
	}
	s.Options = labels
	s.First = r.IntN(len(labels))
	if s.Highlight == "none" {
		s.First = -1
	}
}

// wrapLead wraps text after lead into rows of at most width cells, at
// blanks, as a TUI does.
func wrapLead(lead, text string, width int) []string {
	var rows []string
	row, fresh := lead, true
	for _, w := range strings.Split(text, " ") {
		switch {
		case fresh:
			row, fresh = row+w, false
		case cells(row)+1+cells(w) <= width:
			row += " " + w
		default:
			rows, row = append(rows, row), w
		}
	}
	return append(rows, row)
}

func cells(s string) int { return len([]rune(s)) }

func pad(s string, n int) string {
	if c := cells(stripSGR(s)); c < n {
		return s + strings.Repeat(" ", n-c)
	}
	return s
}

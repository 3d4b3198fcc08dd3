package heuristics

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clipperhouse/displaywidth"
)

// genDialog is one generated dialog: the screen and what must be read.
type genDialog struct {
	screen                         string
	cols                           int
	question, command, allow, deny string
	tool, file                     string
}

// frameSet draws a dialog's frame: none (a rule above it), a box, or a
// bar down its left side.
type frameSet struct{ top, left, right, bottom string }

var genFrames = []frameSet{
	{top: "rule"},
	{top: "╭╮", left: "│ ", right: " │", bottom: "╰╯"},
	{top: "┌┐", left: "│ ", right: " │", bottom: "└┘"},
	{left: "┃  "},
}

var (
	genTitles    = []string{"Shell", "Permission required", "Tool call", "Action needed", "Confirm"}
	genCmdAsks   = []string{"Do you want to proceed?", "Allow execution of [Shell]?", "Do you want to run this command?", "Would you like to run the following command?", "Run this command?", "Allow this action?"}
	genAllow     = []string{"Yes", "Allow once", "Yes, proceed (y)", "Approve", "Run it", "Allow"}
	genWide      = []string{"Yes, and don't ask again for these commands", "Allow for this session", "Always allow", "Yes, allow all edits during this session (shift+tab)", "Yes, and always allow access to ws/ from this project"}
	genReject    = []string{"No", "No, suggest changes (esc)", "Reject", "Deny", "No, and tell the agent what to do differently (esc)", "Cancel"}
	genWords     = []string{"echo", "printf", "ls", "-la", "grep", "-n", "alpha", "made.txt", "&&", "|", "wc", "-l", "'a b'", `"x\ny"`, "src/main.go", "--flag=value", "rm", "-f", "tmp/out.log", ">", "2>&1", "sed", "'s/a/b/'", "git", "status", "--short", "npm", "test", "--", "verylongargument_" + strings.Repeat("x", 30)}
	genWarnings  = []string{"⚠ CRITICAL SECURITY WARNING: Untrusted Command Flags Detected", "Redirection detected. To auto-accept, press Shift+Tab", "Note: this command reaches outside the workspace", "  • -n"}
	genPointers  = []string{"❯", "›", "●", ">"}
	genFileNames = []string{"notes.md", "src/app.go", "docs/a-b.txt", "Makefile.am", "pkg/x_test.go"}
)

// generate makes a dialog from r: frame, title, warnings, a command (in a
// box, on a "$ " row, under a heading) or a file or nothing, and options
// in any order, numbered or not, highlighted by a pointer or by reverse
// video.
func generate(r *rand.Rand) genDialog {
	g := genDialog{cols: 70 + r.IntN(60)}
	f := genFrames[r.IntN(len(genFrames))]
	inner := g.cols - 2 - len([]rune(f.left)) - len([]rune(f.right))
	var body []string
	kind := r.IntN(4) // 0 box, 1 "$ ", 2 heading, 3 file; 4 question only
	if r.IntN(6) == 0 {
		kind = 4
	}
	switch kind {
	case 2: // the heading is the title
	case 3:
		body = append(body, genTitles[1+r.IntN(len(genTitles)-1)]) // not "Shell"
	default:
		body = append(body, genTitles[r.IntN(len(genTitles))])
	}
	warn := func() {
		for range r.IntN(3) {
			body = append(body, genWarnings[r.IntN(len(genWarnings))])
		}
	}
	if r.IntN(2) == 0 {
		warn()
	}
	g.question = genCmdAsks[r.IntN(len(genCmdAsks))]
	switch kind {
	case 0:
		room := inner - 4
		var wrapped []string
		for ok := false; !ok; {
			g.command = genCommand(r, 1+r.IntN(25))
			wrapped, ok = wrapWords(g.command, room)
		}
		body = append(body, "╭"+strings.Repeat("─", room+2)+"╮")
		for _, row := range wrapped {
			body = append(body, "│ "+pad(row, room)+" │")
		}
		body = append(body, "╰"+strings.Repeat("─", room+2)+"╯")
	case 1:
		g.command = genFitting(r, inner-4)
		body = append(body, "", "$ "+g.command, "")
	case 2:
		g.command = genFitting(r, inner-4)
		body = append(body, "Bash command", "", "  "+g.command)
		if r.IntN(2) == 0 {
			body = append(body, "  Write the two lines to the file")
		}
		body = append(body, "")
	case 3:
		g.file, g.tool = genFileNames[r.IntN(len(genFileNames))], "Write"
		g.question = "Do you want to create " + g.file + "?"
		if r.IntN(2) == 0 {
			body = append(body, "Create file", g.file)
			g.question = []string{g.question, "Apply this change?", "Do you want to proceed?"}[r.IntN(3)]
		}
		dash := strings.Repeat("╌", inner)
		body = append(body, dash)
		for i := range 1 + r.IntN(4) {
			body = append(body, fmt.Sprintf("%3d %s", i+1, genWords[r.IntN(len(genWords))]))
		}
		body = append(body, dash)
	}
	if r.IntN(2) == 0 {
		warn()
	}
	body = append(body, g.question)
	if r.IntN(3) == 0 {
		body = append(body, "")
	}
	body = append(body, genOptions(r, &g)...)
	if r.IntN(2) == 0 {
		body = append(body, "", "Esc to cancel · Tab to amend")
	}
	var rows []string
	for range r.IntN(4) {
		rows = append(rows, "● Some words the model said before asking.", "")
	}
	switch f.top {
	case "rule":
		rows = append(rows, strings.Repeat("─", g.cols-1))
	case "":
	default:
		rows = append(rows, f.top[:len(f.top)/2]+strings.Repeat("─", g.cols-3)+f.top[len(f.top)/2:])
	}
	for _, b := range body {
		if f.right != "" {
			b = pad(b, inner)
		}
		rows = append(rows, f.left+b+f.right)
	}
	if f.bottom != "" {
		rows = append(rows, f.bottom[:len(f.bottom)/2]+strings.Repeat("─", g.cols-3)+f.bottom[len(f.bottom)/2:])
	}
	g.screen = strings.Join(rows, "\n")
	return g
}

// genOptions lays out the options and notes which allows and which denies.
func genOptions(r *rand.Rand, g *genDialog) []string {
	labels := []string{genAllow[r.IntN(len(genAllow))]}
	for range r.IntN(3) {
		labels = append(labels, genWide[r.IntN(len(genWide))])
	}
	allowAt := 0
	if r.IntN(4) == 0 && len(labels) > 1 {
		allowAt = 1 + r.IntN(len(labels)-1) // the "always" options may come first
		labels[0], labels[allowAt] = labels[allowAt], labels[0]
	}
	labels = append(labels, genReject[r.IntN(len(genReject))])
	numbered := r.IntN(3) != 0
	for i := range labels {
		if numbered {
			labels[i] = strconv.Itoa(i+1) + ". " + labels[i]
		}
	}
	g.allow, g.deny = labels[allowAt], labels[len(labels)-1]
	hi, pointer := r.IntN(len(labels)), genPointers[r.IntN(len(genPointers))]
	reverse := r.IntN(3) == 0
	out := make([]string, len(labels))
	for i, l := range labels {
		switch {
		case reverse && i == hi:
			out[i] = "  \x1b[7m" + l + "\x1b[0m"
		case reverse:
			out[i] = "  " + l
		case i == hi:
			out[i] = pointer + " " + l
		default:
			out[i] = strings.Repeat(" ", displaywidth.String(pointer)+1) + l
		}
	}
	return out
}

// genCommand is n words; it does not end in an operator (no shell
// command does).
func genCommand(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = genWords[r.IntN(len(genWords))]
	}
	for strings.Contains("| && > 2>&1", w[n-1]) {
		w[n-1] = genWords[r.IntN(len(genWords))]
	}
	return strings.Join(w, " ")
}

// genFitting is a command that fits one row of room cells.
func genFitting(r *rand.Rand, room int) string {
	for {
		if c := genCommand(r, 1+r.IntN(8)); displaywidth.String(c) <= room {
			return c
		}
	}
}

// wrapWords wraps s at blanks into rows of at most room cells, as a TUI's
// box does, breaking a word longer than a row. ok is false where a row
// that ends a word is exactly full: a break there reads as a word broken
// in the middle to anyone (the TUI dropped the blank), so the generator
// draws another command.
func wrapWords(s string, room int) (rows []string, ok bool) {
	row, ok := "", true
	for _, w := range strings.Split(s, " ") {
		for displaywidth.String(w) > room {
			if row != "" {
				rows, row = append(rows, row), ""
			}
			rows, w = append(rows, w[:room]), w[room:]
		}
		switch {
		case row == "":
			row = w
		case displaywidth.String(row)+1+displaywidth.String(w) <= room:
			row += " " + w
		default:
			rows, row = append(rows, row), w
		}
		if displaywidth.String(row) == room {
			ok = false
		}
	}
	return append(rows, row), ok
}

func pad(s string, n int) string {
	if w := displaywidth.String(stripSGR(s)); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}

func stripSGR(s string) string {
	return strings.NewReplacer("\x1b[7m", "", "\x1b[0m", "").Replace(s)
}

// TestFindDialogGenerated reads generated dialogs through the screen
// model: each is found, its allow-once and reject options are the ones
// meant, and what it is about (command, file) is exactly what it drew.
// YUME_SEED replays a run; the seed is in the log.
func TestFindDialogGenerated(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("YUME_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (YUME_SEED=%d replays it)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 0))
	n := 400
	if testing.Short() {
		n = 100
	}
	for i := range n {
		g := generate(r)
		dl, why := FindDialog(screenText(g.cols, 60, g.screen))
		if dl == nil {
			t.Fatalf("case %d: no dialog (%s) in\n%s", i, why, g.screen)
		}
		opt := func(i int) string {
			if i < 0 {
				return ""
			}
			return dl.Options[i]
		}
		bad := func(what, got, want string) {
			t.Errorf("case %d: %s = %q, want %q in\n%s", i, what, got, want, g.screen)
		}
		switch {
		case opt(dl.Allow) != g.allow:
			bad("allow", opt(dl.Allow), g.allow)
		case opt(dl.Reject) != g.deny:
			bad("reject", opt(dl.Reject), g.deny)
		case dl.Question != g.question:
			bad("question", dl.Question, g.question)
		case dl.Command != g.command:
			bad("command", dl.Command, g.command)
		case dl.Tool != g.tool || dl.File != g.file:
			bad("file", dl.Tool+" "+dl.File, g.tool+" "+g.file)
		}
		if t.Failed() {
			return
		}
	}
}

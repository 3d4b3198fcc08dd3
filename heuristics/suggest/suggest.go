// Package suggest proposes a rule profile from a recording of a person
// answering a program's questions: `yume-cli rules suggest FILE.cast`.
//
// The recording's output is played through the screen model (vt)
// up to each answer the person typed. The screen at the first key of an
// answer says what was asked: the row the cursor waits on (or, for an
// arrow-key menu, the question above its options), the non-blank row just
// above it (context), whether the cursor sits at the end of the question
// (cursor: end), and whether it is a numbered or arrow menu. The keys up to
// Enter are the answer. Each question becomes one rule: a match anchored on
// the question row with the variable parts generalised, the kind (confirm,
// menu or input), the keys the person typed (approve, or deny when they said
// no) and the opposite answer.
//
// The result is a starting point that a person must review: it is
// generalised from one recording. It always parses (heuristics.ParseProfile)
// and, unedited, its rules answer the recording's own questions with the
// recording's own keys when it is replayed over the generic profile.
package suggest

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
	"github.com/kballard/go-shellquote"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/vt"
)

// Options tunes a suggestion.
type Options struct {
	// Name is the profile's name; "" derives one from the recorded command.
	Name string
	// File names the recording in the header comment ("" = "the recording").
	File string
	// Output names the profile file in the header's example commands ("" =
	// PROFILE.yaml).
	Output string
}

// Profile is a suggested rule profile.
type Profile struct {
	Name, Description string
	// Command is the recorded command line, as argv.
	Command []string
	// CommandLine is the recorded command as the cast has it.
	CommandLine string
	Rules       []*Rule
	// Answers are the answers found in the recording, in order, each with
	// the rule it made or joined, or why it made none.
	Answers      []*Answer
	file, output string
}

// Rule is one suggested rule, in the profile file's terms.
type Rule struct {
	Name      string
	Match     string
	Kind      heuristics.Kind
	CursorEnd bool
	Approve   string // key notation (heuristics.ParseKeys)
	Deny      string // "" for none
	// Notes are comment lines written above the rule: the answers it came
	// from.
	Notes []string
	body  string // the match without its context: the question itself
}

// Answer is one answer a person typed.
type Answer struct {
	At       time.Duration // when the first key was typed
	Question string        // the question row, as on the screen
	Keys     string        // what was typed, in key notation
	// Rule is the rule the answer made or joined; nil when it made none,
	// and Skipped says why.
	Rule    *Rule
	Skipped string
	// Asks is true for a confirm or menu answer: a replay numbers these
	// questions, and Approved says whether the person's keys were the
	// rule's approve keys (false: they were its deny keys).
	Asks, Approved bool
}

// FromCast suggests a profile from a recording.
func FromCast(c *recordings.Cast, o Options) (*Profile, error) {
	if c.Header.Width < 1 || c.Header.Height < 1 {
		return nil, fmt.Errorf("the recording has no window size")
	}
	p := &Profile{CommandLine: c.Header.Command, file: o.File, output: o.Output}
	if argv, err := shellquote.Split(c.Header.Command); err == nil {
		p.Command = argv
	} else {
		p.Command = strings.Fields(c.Header.Command)
	}
	p.Name = o.Name
	if p.Name == "" {
		p.Name = nameFromCommand(p.Command)
	}
	what := "the recording"
	if o.File != "" {
		what = filepath.Base(o.File)
	}
	p.Description = fmt.Sprintf("Questions %s asked in %s (suggested by yume-cli rules suggest; review before use).",
		orDefault(c.Header.Command, "the program"), what)

	scr := vt.NewScreen(c.Header.Width, c.Header.Height)
	asked := map[int64]bool{} // absolute rows of the questions so far
	var cur *pending
	var done []*pending
	flush := func() {
		if cur != nil && len(cur.keys) > 0 {
			done = append(done, cur)
		}
		cur = nil
	}
	for _, e := range c.Events {
		switch e.Code {
		case recordings.CodeOutput:
			_, _ = scr.Write([]byte(e.Data)) // a screen model takes any bytes
		case recordings.CodeResize:
			if cols, rows, ok := e.Size(); ok {
				scr.Resize(cols, rows)
			}
		case recordings.CodeInput:
			data := vt.StripQueryReplies([]byte(e.Data))
			for len(data) > 0 {
				if cur != nil && cur.movedOn(scr) {
					flush()
				}
				if cur == nil {
					cur = begin(scr, e.Time, asked)
				}
				// An answer ends with Enter. Ctrl-C and Ctrl-D end it too,
				// and are an answer of their own: leaving, not answering.
				i := bytes.IndexAny(data, "\r\n\x03\x04")
				if i < 0 {
					cur.keys = append(cur.keys, data...)
					break
				}
				if (data[i] == 3 || data[i] == 4) && (i > 0 || len(cur.keys) > 0) {
					cur.keys = append(cur.keys, data[:i]...)
					data = data[i:]
					flush()
					continue
				}
				cur.keys = append(cur.keys, data[:i+1]...)
				data = data[i+1:]
				flush()
			}
		}
	}
	flush()
	for _, pe := range done {
		p.add(pe)
	}
	return p, nil
}

// pending is an answer being typed: the screen it answers and its keys.
type pending struct {
	at     time.Duration
	q      *question // nil when the screen shows no question
	why    string    // why q is nil
	absRow int64     // absolute cursor row at the first key
	keys   []byte
}

// begin reads the question on scr as the person starts to answer it;
// asked holds the absolute rows of the questions before it, and gets this
// one's.
func begin(scr *vt.Screen, at time.Duration, asked map[int64]bool) *pending {
	row, _, _ := scr.Cursor()
	pe := &pending{at: at, absRow: int64(scr.Retired()) + int64(row)}
	pe.q, pe.why = readQuestion(scr, asked)
	if pe.q != nil {
		asked[pe.q.absRow] = true
	}
	return pe
}

// movedOn reports that the program went on to another row without an
// Enter: a single-key answer was taken and the next key answers something
// else. A wrapped long answer is not moving on.
func (pe *pending) movedOn(scr *vt.Screen) bool {
	row, _, _ := scr.Cursor()
	abs := int64(scr.Retired()) + int64(row)
	if abs == pe.absRow {
		return false
	}
	if row > 0 && displaywidth.String(scr.Line(row-1)) >= scr.Cols() {
		return false
	}
	return cursorAfterText(scr)
}

// add turns one typed answer into a rule, or joins it to the rule of the
// same question.
func (p *Profile) add(pe *pending) {
	a := &Answer{At: pe.at}
	p.Answers = append(p.Answers, a)
	keys, err := heuristics.KeyNotation(pe.keys)
	a.Keys = keys
	if pe.q != nil {
		a.Question = pe.q.text
	}
	switch {
	case err != nil:
		a.Skipped = err.Error()
		return
	case keys == "<C-c>" || keys == "<C-d>":
		a.Skipped = "the person typed " + keys + " to leave, not to answer"
		return
	case pe.q == nil:
		a.Skipped = pe.why
		return
	}
	q := pe.q
	r := &Rule{Match: q.match(), CursorEnd: q.cursorEnd, body: q.body}
	typed := string(bytes.TrimRight(pe.keys, "\r\n"))
	enter := bytes.HasSuffix(pe.keys, []byte("\r"))
	switch {
	case q.menu != noMenu:
		r.Kind, r.Approve, r.Deny = heuristics.KindMenu, keys, "<C-c>"
		if q.quitOption != "" && !strings.Contains(keys, q.quitOption+"<") {
			r.Deny = q.quitOption + "<Enter>"
		}
		a.Approved = true
	case isYesNo(typed, enter) && (q.hint || strings.HasSuffix(strings.TrimSpace(q.prompt), "?") && typed != ""):
		r.Kind = heuristics.KindConfirm
		yes := answersYes(typed, q)
		other := opposite(typed, yes, q)
		if yes {
			r.Approve, r.Deny = keys, other
		} else {
			r.Approve, r.Deny = other, keys
		}
		a.Approved = yes
	default:
		r.Kind, r.Approve, r.Deny = heuristics.KindInput, keys, "<C-c>"
		a.Approved = true
	}
	a.Asks = r.Kind != heuristics.KindInput
	r.Notes = []string{fmt.Sprintf("Answer %d at %.2fs: the person typed %s at %q.", len(p.Answers), pe.at.Seconds(),
		quoteKeys(keys), q.text)}
	if old := p.sameQuestion(r.body); old != nil {
		a.Rule = old
		p.join(old, r, a)
		return
	}
	r.Name = p.uniqueName(q.name)
	p.Rules = append(p.Rules, r)
	a.Rule = r
}

// join merges a second answer to the same question into its rule: a "no"
// to a question once answered "yes" gives the rule its deny keys, and an
// input typed differently each time becomes the prompt.
func (p *Profile) join(old, r *Rule, a *Answer) {
	old.Notes = append(old.Notes, r.Notes...)
	if old.Match != r.Match { // the rows above differ: no context
		old.Match = "(?m)" + old.body
	}
	switch {
	case old.Kind == heuristics.KindConfirm && r.Kind == heuristics.KindConfirm:
		if a.Approved {
			old.Approve = r.Approve
		} else {
			old.Deny = r.Deny
		}
	case old.Kind == heuristics.KindInput && r.Kind == heuristics.KindInput && old.Approve != r.Approve:
		if strings.HasSuffix(old.Approve, "<Enter>") && strings.HasSuffix(r.Approve, "<Enter>") {
			old.Approve = "<Prompt><Enter>"
			old.Notes = append(old.Notes, "Answered differently each time: approve types the prompt (a replay types what was recorded).")
		} else {
			old.Notes = append(old.Notes, "Answered differently each time: the keys of the first answer are kept.")
		}
	case old.Kind != r.Kind || old.Approve != r.Approve:
		old.Notes = append(old.Notes, "Answered differently each time: the keys of the first answer are kept.")
	}
}

// sameQuestion is the rule made for the same question, whatever the row
// above it said.
func (p *Profile) sameQuestion(body string) *Rule {
	for _, r := range p.Rules {
		if r.body == body {
			return r
		}
	}
	return nil
}

func (p *Profile) uniqueName(base string) string {
	if base == "" {
		base = "question"
	}
	name := base
	for n := 2; ; n++ {
		taken := false
		for _, r := range p.Rules {
			taken = taken || r.Name == name
		}
		if !taken {
			return name
		}
		name = base + "-" + strconv.Itoa(n)
	}
}

// ApproveFlag is the replay --approve value that answers the recording's
// questions as the person did: all, none, or the numbers approved.
func (p *Profile) ApproveFlag() string {
	var yes []string
	n, no := 0, 0
	for _, a := range p.Answers {
		if a.Rule == nil || !a.Asks {
			continue
		}
		n++
		if a.Approved {
			yes = append(yes, strconv.Itoa(n))
		} else {
			no++
		}
	}
	switch {
	case no == 0:
		return "all"
	case len(yes) == 0:
		return "none"
	}
	return strings.Join(yes, ",")
}

// YAML is the profile file, with a header saying where it came from and
// that it must be reviewed.
func (p *Profile) YAML() []byte {
	var b bytes.Buffer
	file := orDefault(p.file, "the recording")
	out := orDefault(p.output, p.Name+".yaml")
	rec := orDefault(p.file, "FILE.cast")
	fmt.Fprintf(&b, "# Suggested by `yume-cli rules suggest` from %s, a recording of\n", comment(file))
	fmt.Fprintf(&b, "#   %s\n", comment(orDefault(p.CommandLine, "(no command recorded)")))
	b.WriteString(`#
# REVIEW IT BEFORE USE. It was generalised from one recording: each rule
# matches a question the person answered there (numbers became \d+, file
# and quoted names .+?, a default in parentheses any default), and its
# approve keys are what the person typed to say yes, its deny keys what they
# typed to say no or the opposite answer (Ctrl-C where there is none).
# Check the matches against other runs of the program, and the keys.
#
`)
	fmt.Fprintf(&b, "#   yume-cli rules check %s\n", comment(shellquote.Join(out)))
	fmt.Fprintf(&b, "#   yume-cli replay %s --provider generic --rules %s --approve %s\n",
		comment(shellquote.Join(rec)), comment(shellquote.Join(out)), p.ApproveFlag())
	for _, a := range p.Answers {
		if a.Skipped != "" {
			fmt.Fprintf(&b, "#\n# No rule for the answer at %.2fs (%s): %s\n", a.At.Seconds(), comment(quoteKeys(a.Keys)), comment(a.Skipped))
		}
	}
	fmt.Fprintf(&b, "name: %s\n", yamlString(p.Name))
	fmt.Fprintf(&b, "description: %s\n", yamlString(p.Description))
	b.WriteString("command: [")
	for i, a := range p.Command {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(yamlString(a))
	}
	b.WriteString("]\n")
	b.WriteString("quiet_ms: 40\n")
	if len(p.Rules) == 0 {
		b.WriteString("rules: []\n")
		return b.Bytes()
	}
	b.WriteString("rules:\n")
	for i, r := range p.Rules {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "  # %s\n", comment(n))
		}
		fmt.Fprintf(&b, "  - name: %s\n", yamlString(r.Name))
		fmt.Fprintf(&b, "    match: %s\n", yamlString(r.Match))
		fmt.Fprintf(&b, "    kind: %s\n", r.Kind)
		if r.CursorEnd {
			b.WriteString("    cursor: end\n")
		}
		fmt.Fprintf(&b, "    approve: %s\n", yamlString(r.Approve))
		if r.Deny != "" {
			fmt.Fprintf(&b, "    deny: %s\n", yamlString(r.Deny))
		}
	}
	return b.Bytes()
}

// question is what the screen asked when the person started to answer.
type question struct {
	text   string // the question row
	absRow int64  // its absolute row (vt.Screen.Retired()+row)
	prompt string // the row without a leading "? " status mark
	name   string // rule name from its words
	// The rule's regex is (?m), the optional context row, then body: the
	// question row and, for an arrow menu, its options.
	context, body string
	cursorEnd     bool
	menu          menuKind
	quitOption    string // a numbered menu's quit/cancel option number
	hint          bool   // a y/n hint such as (y/n), [Y/n], (yes)
	defaultYes    int    // +1: Enter says yes, -1: no, 0: unknown
}

// match is the question's regex.
func (q *question) match() string { return "(?m)" + q.context + q.body }

type menuKind int

const (
	noMenu menuKind = iota
	arrowMenu
	numberedMenu
)

// readQuestion finds the question on the screen and builds its regex. The
// row above is its context unless it is an earlier question (asked): a
// rule's rows must not overlap the rows of the question answered before,
// or the engine takes the new question for the old one.
func readQuestion(scr *vt.Screen, asked map[int64]bool) (*question, string) {
	lines := scr.Lines()
	crow, _, _ := scr.Cursor()
	if crow < 0 || crow >= len(lines) {
		return nil, "the cursor is off the screen"
	}
	q := &question{}
	qrow := -1
	var option, marker string
	if r, m, opt, ok := findArrowMenu(lines, crow); ok {
		qrow, marker, option, q.menu = r, m, opt, arrowMenu
	} else {
		qrow = crow
		if strings.TrimSpace(lines[qrow]) == "" {
			return nil, "the cursor was on a blank row: no question to anchor on"
		}
		q.cursorEnd = cursorAfterText(scr)
	}
	q.text = lines[qrow]
	q.absRow = int64(scr.Retired()) + int64(qrow)
	indent, prefix, body := splitRow(q.text)
	q.prompt = body
	q.hint = hintRx.MatchString(body)
	q.defaultYes = defaultAnswer(body)
	q.name = ruleName(body)
	if q.menu == noMenu {
		if n, quit := numberedItems(lines, qrow); n >= 2 && !q.hint {
			q.menu, q.quitOption = numberedMenu, quit
		}
	}

	if ctx, gap, ok := contextRow(lines, qrow); ok && !asked[q.absRow-int64(gap)-1] {
		var c strings.Builder
		c.WriteString("(?:^")
		if strings.HasPrefix(ctx, " ") {
			c.WriteString(" *")
		}
		c.WriteString("(?P<context>")
		c.WriteString(generalise(strings.TrimLeft(ctx, " "), false))
		c.WriteString(")")
		c.WriteString(strings.Repeat(`\n`, gap+1))
		c.WriteString(")?")
		q.context = c.String()
	}
	var re strings.Builder
	re.WriteString("^")
	if indent != "" {
		re.WriteString(" *")
	}
	re.WriteString(literal(prefix))
	re.WriteString("(?P<prompt>")
	re.WriteString(generalise(body, true))
	re.WriteString(")$")
	if q.menu == arrowMenu {
		// The options, down to the one highlighted when the person started:
		// the answer keys move from there. Once the highlight moves or the
		// menu closes, the rule no longer matches and does not fire again.
		re.WriteString(`\n(?:[ \t].*\n)*?[ \t]*`)
		re.WriteString(literal(marker))
		re.WriteString(" +(?P<option>")
		re.WriteString(generalise(option, false))
		re.WriteString(")$")
	} else if lastNonBlank(lines) == qrow {
		// The question is the last thing on the screen: once the program
		// prints below it, it was answered (also when Enter left the row
		// as it was), so the rule neither fires again nor is retyped.
		re.WriteString(`\n*\z`)
	}
	q.body = re.String()
	if !matches(scr, q.match(), q.cursorEnd) {
		// The generalised regex must match the screen it came from; fall
		// back to the literal row if it does not.
		q.context, q.body = "", "^(?P<prompt>"+literal(q.text)+")$"
		if q.menu == arrowMenu || !matches(scr, q.match(), q.cursorEnd) {
			return nil, fmt.Sprintf("no regex built from %q matches its own screen", q.text)
		}
	}
	return q, ""
}

// matches checks a question's regex against the screen it came from with
// the rule engine, cursor condition included.
func matches(scr *vt.Screen, match string, cursorEnd bool) bool {
	rx, err := regexp.Compile(match)
	if err != nil {
		return false
	}
	r := &heuristics.Rule{Name: "check", Look: heuristics.Look{Area: heuristics.AreaScreen}, Match: rx,
		Kind: heuristics.KindInput, Approve: heuristics.MustParseKeys("x")}
	if cursorEnd {
		r.Cursor = heuristics.CursorEnd
	}
	det, _ := heuristics.NewEngine(&heuristics.Profile{Rules: []*heuristics.Rule{r}}).Evaluate(scr, true)
	return det != nil
}

// markerRx is a highlighted menu option: "❯ Build", "> Build", "› Build".
var markerRx = regexp.MustCompile(`^( *)([❯›▸▶►→>])( +)(\S.*)$`)

// findArrowMenu looks for an arrow-key menu near the cursor: a question
// row, option rows under it, one of them marked. It returns the question's
// row, the mark and the marked option.
func findArrowMenu(lines []string, crow int) (qrow int, marker, option string, ok bool) {
	last := max(crow, lastNonBlank(lines))
	for m := min(last, len(lines)-1); m >= 0 && m >= crow-15; m-- {
		sm := markerRx.FindStringSubmatch(lines[m])
		if sm == nil {
			continue
		}
		// Up from the marked row: option rows (indented), then the question.
		q := m - 1
		for q >= 0 && strings.HasPrefix(lines[q], " ") && strings.TrimSpace(lines[q]) != "" && !looksAsked(lines[q]) {
			q--
		}
		if q < 0 || !looksAsked(lines[q]) {
			return 0, "", "", false
		}
		options := m - q
		for r := m + 1; r < len(lines) && strings.HasPrefix(lines[r], " ") && strings.TrimSpace(lines[r]) != ""; r++ {
			options++
		}
		if options < 2 {
			return 0, "", "", false
		}
		return q, sm[2], sm[4], true
	}
	return 0, "", "", false
}

// looksAsked reports whether a row reads as a menu's question.
func looksAsked(row string) bool {
	t := strings.TrimSpace(row)
	return strings.HasPrefix(t, "? ") || strings.HasPrefix(t, "[?] ") ||
		strings.HasSuffix(t, "?") || strings.HasSuffix(t, ":") || strings.Contains(t, "(Use arrow keys)") ||
		strings.Contains(t, "[Use arrows")
}

var (
	itemRx = regexp.MustCompile(`(?:^|\s)(\d+)[:.)] +(\S+(?: \S+)*)`)
	quitRx = regexp.MustCompile(`(?i)^(?:quit|exit|cancel|abort|none|no)\b`)
)

// numberedItems counts "1: clean", "2) foo", "3. bar" items in the block of
// rows just above the question, and returns the number of the one that
// quits, if any.
func numberedItems(lines []string, qrow int) (n int, quit string) {
	for r := qrow - 1; r >= 0 && r >= qrow-12 && strings.TrimSpace(lines[r]) != ""; r-- {
		for _, m := range itemRx.FindAllStringSubmatch(lines[r], -1) {
			n++
			if quit == "" && quitRx.MatchString(m[2]) {
				quit = m[1]
			}
		}
	}
	return n, quit
}

// contextRow is the nearest non-blank row above the question, at most two
// blank rows up, when it says something (letters or digits).
func contextRow(lines []string, qrow int) (row string, gap int, ok bool) {
	for r := qrow - 1; r >= 0 && r >= qrow-3; r-- {
		if strings.TrimSpace(lines[r]) == "" {
			continue
		}
		if !strings.ContainsFunc(lines[r], func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }) {
			return "", 0, false
		}
		return lines[r], qrow - r - 1, true
	}
	return "", 0, false
}

func lastNonBlank(lines []string) int {
	for r := len(lines) - 1; r >= 0; r-- {
		if strings.TrimSpace(lines[r]) != "" {
			return r
		}
	}
	return -1
}

// cursorAfterText is the engine's test for cursor: end on the cursor's row:
// the cursor at most two cells after its text.
func cursorAfterText(scr *vt.Screen) bool {
	row, col, _ := scr.Cursor()
	w := displaywidth.String(scr.Line(row))
	if w == 0 {
		return false
	}
	return col >= w && col <= w+2 || w >= scr.Cols() && col == scr.Cols()-1
}

// statusRx is a leading status mark of prompt libraries: inquirer's and
// survey's "? ", enquirer's "✔ ", "[?] ".
var statusRx = regexp.MustCompile(`^(?:\? |\[\?\] )`)

// splitRow splits a question row into its indentation, a status mark and
// the question.
func splitRow(row string) (indent, prefix, body string) {
	body = strings.TrimLeft(row, " ")
	indent = row[:len(row)-len(body)]
	if m := statusRx.FindString(body); m != "" && len(m) < len(body) {
		prefix, body = m, body[len(m):]
	}
	return indent, prefix, body
}

// Hints that a question wants yes or no: (y/n) [Y/n] (y or n) (yes/no)
// ([y]/n) [y,n,q,a,d,e,?] (yes) [no].
var hintRx = regexp.MustCompile(`(?i)[\[(]\s*\[?y(?:es)?\]?\s*(?:/|,|\bor\b|\|)\s*n(?:o)?\b[^\])\n]*[\])]|[\[(](?:yes|no|y|n)[\])]`)

// defaultAnswer reads what Enter answers from the hint: an upper-case
// letter or a lone word in it.
func defaultAnswer(q string) int {
	h := hintRx.FindString(q)
	switch {
	case h == "" || strings.Contains(h, "Y/") && strings.Contains(h, "/N"):
		return 0
	case strings.Contains(h, "Y/") || strings.Contains(h, "[y]") || strings.EqualFold(h[1:len(h)-1], "yes"):
		return 1
	case strings.Contains(h, "/N") || strings.Contains(h, "[n]") || strings.EqualFold(h[1:len(h)-1], "no"):
		return -1
	}
	return 0
}

var ynRx = regexp.MustCompile(`(?i)^(?:y|yes|n|no)$`)

// isYesNo reports whether the typed text is a yes or no answer: y, yes, n,
// no (any case), or a bare Enter.
func isYesNo(typed string, enter bool) bool {
	return ynRx.MatchString(typed) || typed == "" && enter
}

// answersYes decides whether a yes/no answer said yes; a bare Enter takes
// the question's default, and yes when it shows none.
func answersYes(typed string, q *question) bool {
	if typed == "" {
		return q.defaultYes >= 0
	}
	return typed[0] == 'y' || typed[0] == 'Y'
}

// opposite is the other answer, in the style of the typed one: n<Enter>
// for y<Enter>, no<Enter> for yes<Enter>, and for a bare Enter the letter
// (or the word, when the hint shows words) of the answer it did not give.
func opposite(typed string, yes bool, q *question) string {
	word := len(typed) > 1 || typed == "" && wordHint(q.prompt)
	upper := typed != "" && unicode.IsUpper(rune(typed[0]))
	var s string
	switch {
	case yes && word:
		s = "no"
	case yes:
		s = "n"
	case word:
		s = "yes"
	default:
		s = "y"
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s + "<Enter>"
}

var wordHintRx = regexp.MustCompile(`(?i)[\[(](?:yes|no)(?:/(?:yes|no))?[\])/]`)

func wordHint(q string) bool { return wordHintRx.MatchString(q) }

// Variable parts of a row, tried in this order; the earlier wins where two
// overlap. Hints stay as they are.
var (
	quotedRx  = regexp.MustCompile("'[^'\n]+'|\"[^\"\n]+\"|‘[^’\n]+’|“[^”\n]+”|`[^`\n]+`")
	defaultRx = regexp.MustCompile(`: ?(\([^()\n]+\)|\[[^\[\]\n]+\])$`)
	hexRx     = regexp.MustCompile(`\b0x[0-9a-fA-F]+\b`)
	pathRx    = regexp.MustCompile(`[^\s'"()\[\]{}<>,;]*/[^\s'"()\[\]{}<>,;]*`)
	fileRx    = regexp.MustCompile(`\b[\w-]*[A-Za-z0-9]\.[A-Za-z][A-Za-z0-9]{0,7}\b|\b[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+\b`)
)

type span struct {
	start, end int
	re         string // "" keeps the text (a hint)
}

// generalise writes a row as a regex: hints as they are, quoted and file
// names as .+?, hex and decimal numbers as patterns, a trailing default in
// parentheses as any default (question rows only), runs of blanks as " +",
// the rest literal.
func generalise(row string, isQuestion bool) string {
	var spans []span
	addAll := func(rx *regexp.Regexp, re func(s string) string) {
		for _, loc := range rx.FindAllStringSubmatchIndex(row, -1) {
			s, e := loc[0], loc[1]
			if len(loc) >= 4 && loc[2] >= 0 {
				s, e = loc[2], loc[3]
			}
			if rx == pathRx {
				// A path ends before the sentence does, and has a name in it:
				// "1/2" is a count, "y/n" a hint.
				for e > s && strings.ContainsRune(".?!:", rune(row[e-1])) {
					e--
				}
				if !strings.ContainsFunc(row[s:e], func(c rune) bool { return unicode.IsLetter(c) || c == '.' || c == '~' }) {
					continue
				}
			}
			overlaps := false
			for _, sp := range spans {
				overlaps = overlaps || s < sp.end && e > sp.start
			}
			if !overlaps {
				spans = append(spans, span{s, e, re(row[s:e])})
			}
		}
	}
	addAll(hintRx, func(h string) string {
		// A list of one-letter choices, git add -p's [y,n,q,a,d,j,J,g,/,e,?],
		// changes from question to question: keep its start.
		if first, rest, ok := strings.Cut(h, ","); ok && strings.Contains(rest, ",") {
			second, _, _ := strings.Cut(rest, ",")
			end := h[len(h)-1:]
			return literal(first+","+second+",") + `[^` + literal(end) + `\n]*` + literal(end)
		}
		return ""
	})
	addAll(quotedRx, func(s string) string {
		open, _ := utf8.DecodeRuneInString(s)
		closing, _ := utf8.DecodeLastRuneInString(s)
		return literal(string(open)) + ".+?" + literal(string(closing))
	})
	if isQuestion {
		addAll(defaultRx, func(s string) string {
			if s[0] == '(' {
				return `\([^)\n]*\)`
			}
			return `\[[^\]\n]*\]`
		})
	}
	addAll(hexRx, func(string) string { return `0x[0-9a-fA-F]+` })
	addAll(pathRx, func(string) string { return ".+?" })
	addAll(fileRx, func(string) string { return ".+?" })
	var b strings.Builder
	pos := 0
	for pos < len(row) {
		next := span{start: len(row), end: len(row)}
		for _, sp := range spans {
			if sp.start >= pos && sp.start < next.start {
				next = sp
			}
		}
		b.WriteString(literalPattern(row[pos:next.start], pos == 0))
		if next.start == len(row) {
			break
		}
		if next.re == "" {
			b.WriteString(literal(row[next.start:next.end]))
		} else {
			b.WriteString(next.re)
		}
		pos = next.end
	}
	return b.String()
}

var blanksRx = regexp.MustCompile(`\d+| {2,}`)

// literalPattern is literal text with numbers as \d+ and runs of blanks as
// " +" (columns of a menu move with the widths of their entries).
func literalPattern(s string, atStart bool) string {
	var b strings.Builder
	pos := 0
	for _, loc := range blanksRx.FindAllStringIndex(s, -1) {
		b.WriteString(literal(s[pos:loc[0]]))
		switch {
		case s[loc[0]] != ' ':
			b.WriteString(`\d+`)
		case atStart && loc[0] == 0:
			b.WriteString(" *")
		default:
			b.WriteString(" +")
		}
		pos = loc[1]
	}
	b.WriteString(literal(s[pos:]))
	return b.String()
}

// literal is regexp.QuoteMeta with control characters escaped, so the
// regex fits on one line of the profile.
func literal(s string) string {
	q := regexp.QuoteMeta(s)
	if !strings.ContainsFunc(q, unicode.IsControl) {
		return q
	}
	var b strings.Builder
	for _, c := range q {
		if unicode.IsControl(c) {
			fmt.Fprintf(&b, `\x{%x}`, c)
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

var wordRx = regexp.MustCompile(`[A-Za-z0-9]+`)

// ruleName is kebab-case from the first words of the question, hints and
// defaults left out.
func ruleName(q string) string {
	s := q
	for _, rx := range []*regexp.Regexp{hintRx, defaultRx, quotedRx, pathRx, fileRx} {
		s = rx.ReplaceAllString(s, " ")
	}
	var words []string
	for _, w := range wordRx.FindAllString(s, -1) {
		if strings.Trim(w, "0123456789") != "" { // "(1/2)" is no name
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		words = wordRx.FindAllString(q, -1)
	}
	if len(words) > 5 {
		words = words[:5]
	}
	return strings.ToLower(strings.Join(words, "-"))
}

// interpreters run a script named by their first argument: the script
// names the profile.
var interpreters = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "fish": true,
	"node": true, "deno": true, "bun": true, "python": true, "python3": true, "ruby": true, "perl": true, "npx": true}

var plainWordRx = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// nameFromCommand names a profile after the recorded program: "npm-init",
// "gdb", a script's name for "sh apt-install.sh".
func nameFromCommand(argv []string) string {
	if len(argv) == 0 {
		return "suggested"
	}
	base := filepath.Base(argv[0])
	name := base
	if interpreters[base] {
		for _, a := range argv[1:] {
			if !strings.HasPrefix(a, "-") {
				s := filepath.Base(a)
				name = strings.TrimSuffix(s, filepath.Ext(s))
				break
			}
		}
	} else if len(argv) > 1 && plainWordRx.MatchString(argv[1]) {
		name += "-" + argv[1]
	}
	name = strings.ToLower(strings.Join(wordRx.FindAllString(name, -1), "-"))
	return orDefault(name, "suggested")
}

// quoteKeys shows keys in a comment: 'y<Enter>'.
func quoteKeys(k string) string { return "'" + k + "'" }

// yamlString is s as a single-quoted YAML scalar.
func yamlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// comment keeps a comment on one line.
func comment(s string) string {
	return strings.Map(func(c rune) rune {
		if unicode.IsControl(c) {
			return ' '
		}
		return c
	}, s)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

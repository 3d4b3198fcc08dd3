package driver

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/heuristics"
)

// A replay reads a person's keys for what they did, and looks at what the
// screen did next: the keys are equivalent to a rule's when they take the
// program where the rule's keys would. At a dialog or menu that is the
// option chosen, however it was reached (arrows, past it and back, a
// number, a shortcut letter, typing to filter): the option highlighted on
// the recorded screen when Enter was pressed. At a question read as a
// line, the line as edited (Backspace, Ctrl-U, Ctrl-W): y or yes, n or
// no, Enter for the default the question shows, a letter or number that
// names an option ("[N]one", "5: quit"). For a denial, any option that
// declines (No, Quit, Cancel, Exit, Abort, None…) and the program's quit
// keys at a question (Esc, Ctrl-C, Ctrl-D, a listed q) mean the same. A
// true difference stays one: an approval where the rule denies, a value
// typed into a field, a third option.

// Meanings of a person's answer.
const (
	meansApprove = "approve"
	meansDeny    = "deny"
	meansOther   = "other" // a third option, a value typed, a key that answers otherwise
)

// personAnswer is a person's recorded answer: its keys and what they mean.
type personAnswer struct {
	keys  []byte
	means string
	why   string // how it was read, for the trace
}

// readAnswer reads the recording's next keys (after the view keys a person
// may press first) as an answer to det; false where they cannot be read
// (no recording, no keys up to an answer).
func (d *driver) readAnswer(det *heuristics.Detection) (personAnswer, bool) {
	rec := d.src.recording()
	if rec == nil || det == nil || det.Rule == nil {
		return personAnswer{}, false
	}
	in := rec.PendingInput()
	skip := len(viewPrefix(rec.view, in))
	a, ok := d.readKeys(det, in[skip:], skip)
	if !ok {
		return personAnswer{}, false
	}
	return a, true
}

// readKeys reads in (the pending input from byte at on) as an answer to det.
func (d *driver) readKeys(det *heuristics.Detection, in string, at int) (personAnswer, bool) {
	if in == "" {
		return personAnswer{}, false
	}
	switch k := in[:keyLen(in)]; {
	case k == "\x03" || k == "\x04" || k == "\x1b":
		return personAnswer{keys: []byte(k), means: meansDeny, why: "leaves the question (" + strconv.Quote(k) + ")"}, true
	}
	if c, ok := heuristics.ReadChoices(d.screen); ok && det.Kind == heuristics.KindMenu || ok && det.Dialog != nil {
		return d.readChoice(det, c, in, at)
	}
	return d.readLine(det, in)
}

// readChoice reads in as a walk through the choices c on screen.
func (d *driver) readChoice(det *heuristics.Detection, c *heuristics.Choices, in string, at int) (personAnswer, bool) {
	for j := 0; j < len(in); {
		n := keyLen(in[j:])
		k := in[j : j+n]
		switch {
		case k == "\r" || k == "\n":
			// What Enter chose is the highlight the program drew last
			// before the menu went away: a program draws its highlight
			// after the keys that move it, sometimes after Enter too.
			seen := c.Highlight
			if j > 0 {
				seen = d.lastHighlight(c, at+j)
			}
			if seen < 0 {
				return personAnswer{}, false
			}
			return d.choiceMeaning(det, c, in[:j+n], seen, "Enter on "+strconv.Quote(strings.TrimSpace(c.Options[seen])))
		case k == "\x03" || k == "\x04" || k == "\x1b":
			return personAnswer{keys: []byte(in[:j+n]), means: meansDeny, why: "leaves the menu (" + strconv.Quote(k) + ")"}, true
		case isMoveKey(k) || k == "\x7f" || k == "\b" || k == " ":
			// The highlight moves, or a filter is edited: where it ends
			// is read from the screen at Enter.
		case len(k) == 1 && k[0] > ' ' && k[0] < 0x7f:
			if i := namedKey(c.Options, k); i >= 0 {
				return d.choiceMeaning(det, c, in[:j+n], i, "the key it names "+strconv.Quote(k))
			}
			if i := optionByKey(c.Options, k); i >= 0 {
				if after, ok := heuristics.ReadChoices(d.recordedScreen(at+j+n, nil)); ok && sameOptions(after, c) {
					break // the key only moved the highlight (Claude Code 2.1.197): Enter chooses
				}
				return d.choiceMeaning(det, c, in[:j+n], i, "its key "+strconv.Quote(k))
			}
			// Typing to filter (inquirer, survey): read at Enter.
		default:
			if n == 1 && k[0] < ' ' {
				return personAnswer{}, false
			}
		}
		j += n
	}
	return personAnswer{}, false
}

// sameOptions reports whether seen shows the menu c (or c filtered: fewer
// of its options).
func sameOptions(seen, c *heuristics.Choices) bool {
	for _, o := range seen.Options {
		found := false
		for _, p := range c.Options {
			found = found || o == p
		}
		if !found {
			return false
		}
	}
	return len(seen.Options) > 0
}

// choiceMeaning is what choosing option i (of c as the question showed
// it) means, given the rule's keys for det.
func (d *driver) choiceMeaning(det *heuristics.Detection, c *heuristics.Choices, keys string, i int, how string) (personAnswer, bool) {
	if i < 0 || i >= len(c.Options) {
		return personAnswer{}, false
	}
	o := c.Options[i]
	a := personAnswer{keys: []byte(keys), means: meansOther, why: "chose " + strconv.Quote(strings.TrimSpace(o)) + " by " + how}
	allow, reject := -1, -1
	if dl, _ := heuristics.FindDialog(d.screen); dl != nil && slicesEqual(dl.Options, c.Options) {
		allow, reject = dl.Allow, dl.Reject
	}
	// A menu of actions, none yes or no: any choice goes on.
	actions := allow < 0 && reject < 0 && !anyMeaning(c.Options)
	if ai := d.ruleOption(det.Rule.Approve, c); ai >= 0 {
		allow = ai
	}
	switch {
	case i == reject || heuristics.OptionMeaning(o) == heuristics.MeansReject || i == d.ruleOption(det.Rule.Deny, c):
		a.means = meansDeny
	case i == allow || actions:
		a.means = meansApprove
	}
	return a, true
}

// anyMeaning reports whether some option says yes or no (a row that asks,
// read with a menu drawn under it, is no option).
func anyMeaning(options []string) bool {
	for _, o := range options {
		if !strings.Contains(o, "?") && heuristics.OptionMeaning(o) != heuristics.MeansOther {
			return true
		}
	}
	return false
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ruleOption is the option of c that keys choose: the highlighted one for
// Enter, the one a select: matches, the one a key names; -1 for none.
func (d *driver) ruleOption(keys heuristics.Keys, c *heuristics.Choices) int {
	if keys.IsZero() {
		return -1
	}
	if sel := keys.Select(); sel != nil {
		return c.Index(func(o string) bool {
			return sel.MatchString(strings.TrimSpace(strings.TrimLeft(o, " ❯›>●○◉*")))
		})
	}
	b, err := keys.Encode(d.screen)
	if err != nil {
		return -1
	}
	k := strings.TrimRight(string(b), "\r\n")
	switch {
	case k == "" && len(b) > 0:
		return c.Highlight
	case len(k) == 1:
		return optionByKey(c.Options, k)
	}
	return -1
}

// optionLabel reads an option's number ("2. Yes", "2) Yes") and its
// shortcut key ("Yes, proceed (y)", "No, … (esc)").
var (
	optionNumber   = lazyre.New(`^[\s❯›>●○◉*]*(\d{1,2})[.):]\s`)
	optionShortcut = lazyre.New(`\((\S{1,3})\)\s*$`)
)

// optionByKey is the option a one-character key chooses: by its number
// or its shortcut; -1 for none.
// namedKey is the one option that names k as its own key ("[y]
// Approve"): that key chooses it, whatever the screen shows next.
func namedKey(options []string, k string) int {
	found := -1
	for i, o := range options {
		if heuristics.OptionKey(o) == k {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

func optionByKey(options []string, k string) int {
	found := -1
	for i, o := range options {
		m := optionNumber.FindStringSubmatch(o)
		s := optionShortcut.FindStringSubmatch(strings.TrimSpace(o))
		if m != nil && m[1] == k || s != nil && s[1] == k {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// isMoveKey reports a key that moves a highlight: arrows, Home, End,
// PgUp, PgDn, Tab.
func isMoveKey(k string) bool {
	if _, ok := arrowKeys[k]; ok {
		return true
	}
	switch k {
	case "\t", "\x1b[Z", "\x1b[H", "\x1b[F", "\x1bOH", "\x1bOF", "\x1b[5~", "\x1b[6~":
		return true
	}
	return false
}

// keyLen is the length of the first key in s: an escape sequence, a lone
// Esc, or one character.
func keyLen(s string) int {
	if s == "" {
		return 0
	}
	if s[0] == 0x1b && len(s) > 2 && (s[1] == '[' || s[1] == 'O') {
		for i := 2; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	}
	_, n := utf8.DecodeRuneInString(s)
	return max(n, 1)
}

// readLine reads in as a line typed at a question: the line as edited, up
// to Enter.
func (d *driver) readLine(det *heuristics.Detection, in string) (personAnswer, bool) {
	line, n, ok := editedLine(in)
	if !ok {
		return personAnswer{}, false
	}
	a := personAnswer{keys: []byte(in[:n]), means: meansOther, why: "typed " + strconv.Quote(line)}
	q := d.questionRows(det)
	word := strings.ToLower(strings.TrimSpace(line))
	switch {
	case line == "\x03" || line == "\x04":
		a.means, a.why = meansDeny, "left the question"
	case word == "":
		a.why = "Enter"
		switch {
		case defaultYes.MatchString(q):
			a.means, a.why = meansApprove, "Enter for the default the question shows (yes)"
		case defaultNo.MatchString(q):
			a.means, a.why = meansDeny, "Enter for the default the question shows (no)"
		case d.entersDefault(det.Rule.Approve):
			a.means, a.why = meansApprove, "Enter, as the rule approves"
		}
	case word == "y" || word == "yes":
		a.means = meansApprove
	case word == "n" || word == "no":
		a.means = meansDeny
	default:
		if opt, ok := namedOption(q, strings.TrimSpace(line)); ok {
			a.why += " (" + strconv.Quote(opt) + ")"
			switch {
			case heuristics.OptionMeaning(opt) == heuristics.MeansReject:
				a.means = meansDeny
			case d.ruleNames(det.Rule.Approve, q, opt):
				a.means = meansApprove
			case det.Kind == heuristics.KindMenu && !anyMeaning(numberedOptions(q)):
				a.means = meansApprove // a menu of things to choose, none yes or no: any choice goes on
			}
		}
	}
	return a, true
}

// entersDefault reports whether keys are Enter alone (the rule takes the
// default the question shows).
func (d *driver) entersDefault(keys heuristics.Keys) bool {
	b, err := keys.Encode(d.screen)
	return err == nil && (string(b) == "\r" || string(b) == "\n")
}

// ruleNames reports whether keys (a rule's answer typed as a line) name
// the option opt of question q.
func (d *driver) ruleNames(keys heuristics.Keys, q, opt string) bool {
	b, err := keys.Encode(d.screen)
	if err != nil {
		return false
	}
	k := strings.TrimRight(string(b), "\r\n")
	o, ok := namedOption(q, k)
	return ok && o == opt && k != ""
}

// editedLine is the line typed up to the first Enter in in, as a terminal
// in line mode edits it: Backspace deletes a character, Ctrl-U the line,
// Ctrl-W a word. n is the bytes up to and with the Enter; false where in
// holds no Enter, or keys a line does not hold (arrows). Ctrl-C and
// Ctrl-D end the line at once: the line is then that key.
func editedLine(in string) (line string, n int, ok bool) {
	var b []rune
	for i := 0; i < len(in); {
		k := in[i : i+keyLen(in[i:])]
		i += len(k)
		switch {
		case k == "\r" || k == "\n":
			return string(b), i, true
		case k == "\x03" || k == "\x04":
			return k, i, true
		case k == "\x7f" || k == "\b":
			if len(b) > 0 {
				b = b[:len(b)-1]
			}
		case k == "\x15":
			b = b[:0]
		case k == "\x17":
			for len(b) > 0 && b[len(b)-1] == ' ' {
				b = b[:len(b)-1]
			}
			for len(b) > 0 && b[len(b)-1] != ' ' {
				b = b[:len(b)-1]
			}
		case k[0] < ' ' || k[0] == 0x1b:
			return "", 0, false
		default:
			b = append(b, []rune(k)...)
		}
	}
	return "", 0, false
}

// Options a line question names: "5: quit" (git's menus), "[N]one" and
// "(E)dit anyway" (a letter in brackets), git add -p's "[y,n,q,a,d,e,?]".
var (
	numberedOption = lazyre.New(`(?m)(?:^|\s)(\d{1,2})[:.)] +([^\s\d][^\s]*(?: [a-z][\w'-]*)*)`)
	letterOption   = lazyre.New(`[\[(]([A-Za-z])[\])]([A-Za-z'-]*(?: [a-z][\w'-]*)?)`)
	letterList     = lazyre.New(`\[([a-zA-Z?](?:,[a-zA-Z?])+)\]`)
)

// numberedOptions are the options question q numbers.
func numberedOptions(q string) []string {
	var out []string
	for _, m := range numberedOption.FindAllStringSubmatch(q, -1) {
		out = append(out, m[2])
	}
	return out
}

// namedOption is the option of question q that the typed s names: its
// number or a unique start of its word ("c" for "clean"), a letter in
// brackets, q (quit) in a letter list; false for none.
func namedOption(q, s string) (string, bool) {
	if s == "" {
		return "", false
	}
	if m := numberedOption.FindAllStringSubmatch(q, -1); len(m) >= 2 {
		found := ""
		for _, o := range m {
			if o[1] == s {
				return o[2], true
			}
			if strings.HasPrefix(strings.ToLower(o[2]), strings.ToLower(s)) {
				if found != "" {
					found = "\x00"
				} else {
					found = o[2]
				}
			}
		}
		if found != "" && found != "\x00" {
			return found, true
		}
	}
	if len(s) == 1 {
		for _, exact := range []bool{true, false} {
			for _, m := range letterOption.FindAllStringSubmatch(q, -1) {
				if m[1] == s || !exact && strings.EqualFold(m[1], s) {
					return m[1] + m[2], true
				}
			}
		}
		for _, m := range letterList.FindAllStringSubmatch(q, -1) {
			if strings.Contains(","+m[1]+",", ","+s+",") && s == "q" {
				return "quit", true
			}
		}
	}
	return "", false
}

package heuristics

import (
	"strings"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// An option as drawn carries more than its words: a number ("2. No"), a
// key of its own ("[y] Approve", "(n) No", "[A]ll"), a glyph ("✓ Yes,
// execute this tool", "✗ No"), a hint of the key that picks it
// ("Continue (tab)"). Its label is its words alone, and what it means is
// read from them; its key, where it has one, answers it in one keystroke.

var (
	// optionNumber is an option's number: "2. ", "2) ".
	optionNumber = lazyre.New(`^\d{1,2}[.)] +`)
	// keyedLead is a key in brackets before the words: "[y] Approve",
	// "(n) No", "<y> Yes".
	keyedLead = lazyre.New(`^[\[(<]([A-Za-z])[\])>] *(\S.*)$`)
	// keyedParen is a letter and a parenthesis: "y) Yes".
	keyedParen = lazyre.New(`^([a-z])\) +(\S.*)$`)
	// keyedWord is a word whose first letter is bracketed: "[Y]es", "[A]ll".
	keyedWord = lazyre.New(`^\[([A-Za-z])\]([A-Za-z][^\s\[]*(?: .*)?)$`)
	// keyedTail is a one-letter key hint after the words: "Yes (y)", "Deny [n]".
	keyedTail = lazyre.New(`^(\S.*?) +[\[(]([A-Za-z])[\])]$`)
	// button is an option drawn as a button: "[ Yes ]", "< OK >", "( Cancel )".
	button = lazyre.New(`^[\[(<] *([^\[\]()<>]{2,}?) *[\])>]$`)
	// keyHint is a hint of the key that picks an option, after its words:
	// "(tab)", "(esc)", "(shift+tab)", "(ctrl+c)", "(enter)".
	keyHint = lazyre.New(`(?i) +[\[(](?:tab|esc|escape|enter|return|space|shift\+tab|s-tab|ctrl\+\w|alt\+\w|[a-z0-9])[\])]$`)
)

// optionGlyphs are marks TUIs draw before an option's words: a tick or a
// cross, a box, a bullet.
const optionGlyphs = "✓✔✗✘×☐☑☒○◉◯•·▪▫■□◆◇★☆✦⏵"

// optionLabel is an option's words: its number, key, glyphs and key hint
// taken off.
func optionLabel(o string) string {
	o = strings.TrimSpace(optionNumber.ReplaceAllString(strings.TrimSpace(o), ""))
	if m := button.FindStringSubmatch(o); m != nil {
		o = m[1]
	}
	if m := keyedWord.FindStringSubmatch(o); m != nil {
		o = m[1] + m[2]
	} else if m := keyedLead.FindStringSubmatch(o); m != nil {
		o = m[2]
	} else if m := keyedParen.FindStringSubmatch(o); m != nil {
		o = m[2]
	} else if m := keyedTail.FindStringSubmatch(o); m != nil {
		o = m[1]
	}
	for {
		r, n := utf8.DecodeRuneInString(o)
		if n == 0 || !strings.ContainsRune(optionGlyphs, r) {
			break
		}
		o = strings.TrimLeft(o[n:], " ")
	}
	for {
		t := keyHint.ReplaceAllString(o, "")
		if t == o {
			break
		}
		o = t
	}
	return strings.TrimSpace(o)
}

// OptionKey is the one key an option says picks it ("[y] Approve": y),
// or "" when it names none.
func OptionKey(o string) string { return optionKey(o) }

func optionKey(o string) string {
	o = strings.TrimSpace(o)
	for _, re := range []*lazyre.Regexp{keyedWord, keyedLead, keyedParen} {
		if m := re.FindStringSubmatch(o); m != nil {
			return m[1]
		}
	}
	if m := keyedTail.FindStringSubmatch(o); m != nil {
		return m[2]
	}
	return ""
}

// keyedOptions reads options that each name a key of their own, the keys
// all different: nil otherwise.
func keyedOptions(options []string) []string {
	if len(options) < 2 {
		return nil
	}
	keys := make([]string, len(options))
	seen := map[string]bool{}
	for i, o := range options {
		k := optionKey(o)
		if k == "" || seen[k] {
			return nil
		}
		keys[i], seen[k] = k, true
	}
	return keys
}

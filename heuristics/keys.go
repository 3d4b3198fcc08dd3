package heuristics

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Keys is a parsed key string: literal text and named keys such as <Enter>,
// or "select:REGEX" (move a menu's highlight to the matching option, then
// Enter). The zero Keys types nothing.
type Keys struct {
	parts  []keyPart
	sel    *regexp.Regexp // non-nil for select:
	prompt *string        // set by WithPrompt or WithTyped
	typed  bool           // *prompt holds keys TypeText made (WithTyped)
	// newline is how <Prompt> types a line break without bracketed
	// paste: the profile's (see Profile.Newline).
	newline *Newline
}

// keyPart is literal text (name == "") or one named key.
type keyPart struct {
	name string // canonical name without brackets, e.g. "Enter", "C-c", "Prompt"
	text string // literal text, for name == ""
}

// selectPrefix introduces a menu selection.
const selectPrefix = "select:"

// namedKeys maps canonical key names to their bytes, normal then
// application-cursor mode (DECCKM), where the two differ.
var namedKeys = map[string][2]string{
	"Enter": {"\r", ""}, "Esc": {"\x1b", ""}, "Tab": {"\t", ""}, "S-Tab": {"\x1b[Z", ""},
	"Space": {" ", ""}, "BS": {"\x7f", ""}, "Del": {"\x1b[3~", ""}, "lt": {"<", ""},
	"Up": {"\x1b[A", "\x1bOA"}, "Down": {"\x1b[B", "\x1bOB"},
	"Right": {"\x1b[C", "\x1bOC"}, "Left": {"\x1b[D", "\x1bOD"},
	"Home": {"\x1b[H", "\x1bOH"}, "End": {"\x1b[F", "\x1bOF"},
	"PgUp": {"\x1b[5~", ""}, "PgDn": {"\x1b[6~", ""},
}

// KeyNotation writes typed bytes in the key notation ParseKeys reads
// ("y<Enter>", "<Down><Enter>"): the inverse of Encode, for rules
// suggested from what a person typed. Bytes the notation cannot write (an
// unnamed escape sequence, a control byte) are an error.
func KeyNotation(p []byte) (string, error) {
	var b strings.Builder
	s := string(p)
next:
	for len(s) > 0 {
		for _, k := range keySeqs() {
			if strings.HasPrefix(s, k.seq) {
				b.WriteString("<" + k.name + ">")
				s = s[len(k.seq):]
				continue next
			}
		}
		c, size := utf8.DecodeRuneInString(s)
		switch {
		case c == '\x1b' && (len(s) == 1 || s[1] == '\x1b'):
			b.WriteString("<Esc>")
		case c == '\x1b':
			return "", fmt.Errorf("the keys %q hold an escape sequence the key notation cannot write", s)
		case c >= 1 && c <= 26:
			b.WriteString("<C-" + string(rune('a'+c-1)) + ">")
		case c == '<':
			b.WriteString("<lt>")
		case unicode.IsControl(c) || c == utf8.RuneError && size == 1:
			return "", fmt.Errorf("the keys hold %q, which the key notation cannot write", c)
		default:
			b.WriteRune(c)
		}
		s = s[size:]
	}
	k := b.String()
	if _, err := ParseKeys(k); err != nil {
		return "", fmt.Errorf("the keys %q do not parse: %v", k, err)
	}
	return k, nil
}

// keySeqs are namedKeys' byte sequences (both cursor modes), longest
// first so a sequence wins over its prefix; Esc, Space and lt are written
// by KeyNotation itself.
var keySeqs = sync.OnceValue(func() []struct{ seq, name string } {
	var out []struct{ seq, name string }
	for name, seqs := range namedKeys {
		if name == "Esc" || name == "Space" || name == "lt" {
			continue
		}
		for _, seq := range seqs {
			if seq != "" {
				out = append(out, struct{ seq, name string }{seq, name})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].seq) != len(out[j].seq) {
			return len(out[i].seq) > len(out[j].seq)
		}
		return out[i].seq < out[j].seq
	})
	return out
})

// promptKey is replaced by the turn's prompt (see WithPrompt).
const promptKey = "Prompt"

// canonicalKey returns the canonical spelling of a key name written in any
// case, and whether it is known.
func canonicalKey(name string) (string, bool) {
	if len(name) == 3 && (name[0] == 'C' || name[0] == 'c') && name[1] == '-' {
		c := name[2] | 0x20 // lower case
		if c >= 'a' && c <= 'z' {
			return "C-" + string(c), true
		}
		return "", false
	}
	if strings.EqualFold(name, promptKey) {
		return promptKey, true
	}
	for k := range namedKeys {
		if strings.EqualFold(k, name) {
			return k, true
		}
	}
	return "", false
}

// KeyError is a bad key string; Offset and Len locate the bad token in it.
type KeyError struct {
	Offset, Len int
	Msg         string
}

func (e *KeyError) Error() string { return e.Msg }

// ParseKeys reads the key notation: literal text plus <Enter> <Esc> <Tab>
// <S-Tab> <Up> <Down> <Left> <Right> <Space> <BS> <Del> <Home> <End> <PgUp>
// <PgDn> <C-a>..<C-z> <lt> (a literal '<') <Prompt> (the turn's prompt); or
// the whole string "select:REGEX". Errors are *KeyError.
func ParseKeys(s string) (Keys, error) {
	if re, ok := strings.CutPrefix(s, selectPrefix); ok {
		if re == "" {
			return Keys{}, &KeyError{0, len(s), "select: needs a regex naming the option, e.g. select:^Yes"}
		}
		rx, err := regexp.Compile(re)
		if err != nil {
			return Keys{}, &KeyError{len(selectPrefix), len(re), fmt.Sprintf("bad regex after select: %v", err)}
		}
		return Keys{sel: rx}, nil
	}
	var k Keys
	for i := 0; i < len(s); {
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			k.parts = append(k.parts, keyPart{text: s[i:]})
			break
		}
		if lt > 0 {
			k.parts = append(k.parts, keyPart{text: s[i : i+lt]})
		}
		i += lt
		gt := strings.IndexByte(s[i:], '>')
		if gt < 0 {
			return Keys{}, &KeyError{i, len(s) - i, "unclosed '<': write <lt> for a literal '<'"}
		}
		name, ok := canonicalKey(s[i+1 : i+gt])
		if !ok {
			return Keys{}, &KeyError{i, gt + 1, fmt.Sprintf("unknown key %s: use one of %s, or <lt> for a literal '<'", s[i:i+gt+1], keyNameList())}
		}
		k.parts = append(k.parts, keyPart{name: name})
		i += gt + 1
	}
	return k, nil
}

// MustParseKeys is ParseKeys for constants; it panics on a bad string.
func MustParseKeys(s string) Keys {
	k, err := ParseKeys(s)
	if err != nil {
		panic(fmt.Sprintf("heuristics.MustParseKeys(%q): %v", s, err))
	}
	return k
}

func keyNameList() string {
	return "<Enter> <Esc> <Tab> <S-Tab> <Up> <Down> <Left> <Right> <Space> <BS> <Del> <Home> <End> <PgUp> <PgDn> <C-a>..<C-z> <Prompt>"
}

// IsZero reports whether k types nothing.
func (k Keys) IsZero() bool { return k.sel == nil && len(k.parts) == 0 }

// Select is the option regex of a select: key string, or nil.
func (k Keys) Select() *regexp.Regexp { return k.sel }

// NeedsPrompt reports whether k contains <Prompt> not yet filled by WithPrompt.
func (k Keys) NeedsPrompt() bool {
	if k.prompt != nil {
		return false
	}
	for _, p := range k.parts {
		if p.name == promptKey {
			return true
		}
	}
	return false
}

// WithPrompt returns k with <Prompt> standing for prompt when encoded: typed
// by TypeText, as a bracketed paste when the program on Encode's view
// turned it on, its line breaks as the profile's newline says otherwise.
func (k Keys) WithPrompt(prompt string) Keys {
	k.prompt = &prompt
	return k
}

// WithTyped returns k with <Prompt> standing for keys TypeText made: the
// driver types a text itself, to report what typing it changed.
func (k Keys) WithTyped(t Typed) Keys {
	s := string(t.Keys)
	k.prompt, k.typed = &s, true
	return k
}

// String gives the notation back, in canonical spelling.
func (k Keys) String() string {
	if k.sel != nil {
		return selectPrefix + k.sel.String()
	}
	var b strings.Builder
	for _, p := range k.parts {
		if p.name != "" {
			b.WriteString("<" + p.name + ">")
			continue
		}
		b.WriteString(strings.ReplaceAll(p.text, "<", "<lt>"))
	}
	return b.String()
}

// Encode returns the bytes to type now. Arrow, Home and End keys follow
// v.AppCursor(); select: reads the menu on v (see selectOption). v may be nil
// for keys that need no screen.
func (k Keys) Encode(v View) ([]byte, error) {
	if k.sel != nil {
		if v == nil {
			return nil, fmt.Errorf("keys %s need the screen to find the menu, but none was given", k)
		}
		return selectOption(v, k.sel)
	}
	app := v != nil && v.AppCursor()
	var out []byte
	for _, p := range k.parts {
		switch {
		case p.name == "":
			out = append(out, p.text...)
		case p.name == promptKey:
			if k.prompt == nil {
				return nil, fmt.Errorf("keys %s contain <Prompt> but no prompt was supplied (use Keys.WithPrompt)", k)
			}
			if k.typed {
				out = append(out, *k.prompt...)
			} else {
				out = append(out, TypeText(*k.prompt, bracketed(v), k.lineBreak()).Keys...)
			}
		case strings.HasPrefix(p.name, "C-"):
			out = append(out, p.name[2]-'a'+1)
		default:
			seq := namedKeys[p.name]
			if app && seq[1] != "" {
				out = append(out, seq[1]...)
			} else {
				out = append(out, seq[0]...)
			}
		}
	}
	return out, nil
}

// bracketed reports whether the program on v turned bracketed paste on
// (the emulator's screen says; a view that cannot tell is taken as off).
func bracketed(v View) bool {
	p, ok := v.(interface{ BracketedPaste() bool })
	return ok && p.BracketedPaste()
}

// withNewline returns k with <Prompt> typing line breaks as nl says.
func (k Keys) withNewline(nl Newline) Keys {
	k.newline = &nl
	return k
}

// lineBreak is how <Prompt> types a line break (a space unless bound).
func (k Keys) lineBreak() Newline {
	if k.newline == nil {
		return Newline{}
	}
	return *k.newline
}

// arrow returns the bytes of the Up or Down key for v's cursor-key mode.
func arrow(v View, name string) string {
	seq := namedKeys[name]
	if v.AppCursor() {
		return seq[1]
	}
	return seq[0]
}

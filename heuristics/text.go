package heuristics

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text from the GUI or a flag (a prompt, a revision, a persistent turn's
// user frame) is typed into a program by TypeText and nothing else: it
// types only text, never keys. Line breaks, tabs and everything else that
// is not text are decided here, once.

// The bracketed-paste markers (DEC mode 2004): a program that turned the
// mode on reads everything between them as pasted text.
const (
	PasteStart = "\x1b[200~"
	PasteEnd   = "\x1b[201~"
)

// NewlineMode is how a program's input box takes a line break typed as
// keys, when bracketed paste is off.
type NewlineMode uint8

const (
	// NewlineSpace types a line break as a space (the lines are joined),
	// which the driver reports: the default, for a program whose input
	// box has no newline key, or one the profile does not know.
	NewlineSpace NewlineMode = iota
	// NewlineKey types the profile's newline key (key:<C-j>).
	NewlineKey
	// NewlineBackslashEnter types '\' then Enter, which the program reads
	// as a line break (Claude Code's "quick escape"). Such a program also
	// reads a text's own trailing '\' and the Enter that submits it as a
	// line break, so TypeText ends that text with a space.
	NewlineBackslashEnter
)

// Newline is a profile's `newline:` field: space, backslash-enter or
// key:KEYS.
type Newline struct {
	Mode NewlineMode
	Key  Keys // the key of NewlineKey
}

// ParseNewline reads the `newline:` notation. A newline key must type
// without a screen and must not be Enter, which submits.
func ParseNewline(s string) (Newline, error) {
	switch s {
	case "", "space":
		return Newline{}, nil
	case "backslash-enter":
		return Newline{Mode: NewlineBackslashEnter}, nil
	}
	ks, ok := strings.CutPrefix(s, "key:")
	if !ok {
		return Newline{}, fmt.Errorf("newline %q: use space, backslash-enter or key:KEYS (e.g. key:<C-j>)", s)
	}
	k, err := ParseKeys(ks)
	if err != nil {
		return Newline{}, fmt.Errorf("newline %q: %v", s, err)
	}
	if k.Select() != nil || k.NeedsPrompt() {
		return Newline{}, fmt.Errorf("newline %q: a newline key is plain keys, not select: or <Prompt>", s)
	}
	b, err := k.Encode(nil)
	switch {
	case err != nil:
		return Newline{}, fmt.Errorf("newline %q: %v", s, err)
	case len(b) == 0:
		return Newline{}, fmt.Errorf("newline %q: key: names no key", s)
	case strings.ContainsRune(string(b), '\r'):
		return Newline{}, fmt.Errorf("newline %q: Enter submits the input; name the key that inserts a line break (e.g. key:<C-j>), or backslash-enter", s)
	}
	return Newline{Mode: NewlineKey, Key: k}, nil
}

// String gives the notation back.
func (n Newline) String() string {
	switch n.Mode {
	case NewlineKey:
		return "key:" + n.Key.String()
	case NewlineBackslashEnter:
		return "backslash-enter"
	}
	return "space"
}

// Typed is text as the keys that type it.
type Typed struct {
	Keys []byte
	// Paste: the text went as one bracketed paste.
	Paste bool
	// Removed counts what was taken out: control characters (other than
	// line breaks and tabs) and paste markers inside the text.
	Removed int
	// Joined counts line breaks typed as spaces (NewlineSpace, no paste).
	Joined int
}

// TypeText is the one way text is typed into a program. In order:
//
//   - the paste markers ESC[200~ and ESC[201~ are removed, scanning left to
//     right (a marker the removal puts together is not looked for again:
//     its ESC goes with the control characters);
//   - a byte that is not UTF-8 becomes U+FFFD;
//   - CR LF, CR and LF are each one line break;
//   - every other control character (C0, DEL, C1) is removed;
//   - with bracketed paste on, the text goes between the two markers, line
//     breaks as LF and tabs as they are;
//   - otherwise a tab is a space and a line break is typed as nl says: a
//     space, the newline key, or '\' Enter.
//
// So the keys hold no Enter, Ctrl-C, Esc or other key except the
// newline's, the markers or '\' Enter a mode asks for. Text that is empty
// once cleaned types nothing.
func TypeText(text string, bracketed bool, nl Newline) Typed {
	t := Typed{Paste: bracketed}
	var nlKeys []byte
	if !bracketed && nl.Mode == NewlineKey {
		nlKeys, _ = nl.Key.Encode(nil) // ParseNewline checked it types without a screen
	}
	var b strings.Builder
	b.Grow(len(text) + len(PasteStart) + len(PasteEnd))
	if bracketed {
		b.WriteString(PasteStart)
	}
	start := b.Len()
	lineBreak := func() {
		switch {
		case bracketed:
			b.WriteByte('\n')
		case nl.Mode == NewlineKey:
			b.Write(nlKeys)
		case nl.Mode == NewlineBackslashEnter:
			b.WriteString("\\\r")
		default:
			b.WriteByte(' ')
			t.Joined++
		}
	}
	text, t.Removed = withoutMarkers(text)
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		switch {
		case r == '\r':
			if i < len(text) && text[i] == '\n' {
				i++
			}
			lineBreak()
		case r == '\n':
			lineBreak()
		case r == '\t':
			if bracketed {
				b.WriteByte('\t')
			} else {
				b.WriteByte(' ')
			}
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			t.Removed++
		default:
			b.WriteRune(r) // utf8.RuneError for a byte that is not UTF-8
		}
	}
	if b.Len() == start {
		t.Keys = nil
		return t
	}
	if nl.Mode == NewlineBackslashEnter && strings.HasSuffix(b.String(), `\`) {
		b.WriteByte(' ') // the Enter that follows must submit, not break the line
	}
	if bracketed {
		b.WriteString(PasteEnd)
	}
	t.Keys = []byte(b.String())
	return t
}

// withoutMarkers is text without the paste markers in it, and how many
// there were: one scan, left to right.
func withoutMarkers(text string) (string, int) {
	if !strings.Contains(text, "\x1b[20") {
		return text, 0
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(text); {
		if text[i] == 0x1b && (strings.HasPrefix(text[i:], PasteStart) || strings.HasPrefix(text[i:], PasteEnd)) {
			i += len(PasteStart)
			n++
			continue
		}
		b.WriteByte(text[i])
		i++
	}
	return b.String(), n
}

// TextOnly is text typed with bracketed paste off and line breaks as
// spaces (TypeText): it types only text, never keys.
func TextOnly(s string) string { return string(TypeText(s, false, Newline{}).Keys) }

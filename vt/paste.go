package vt

// modeBracketedPaste is DEC private mode 2004.
const modeBracketedPaste = 2004

// BracketedPaste reports whether the program turned on bracketed paste
// (CSI ? 2004 h). Typed text should then be wrapped in CSI 200 ~ … CSI 201 ~
// so the program takes it as one paste, not as keys: a newline inside a
// prompt does not submit it, and a TUI does not read it as shortcuts.
func (s *Screen) BracketedPaste() bool { return s.decModes[modeBracketedPaste] }

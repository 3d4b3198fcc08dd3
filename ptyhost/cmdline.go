package ptyhost

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Windows has no argv: a program gets one command line and parses it
// itself. Programs built with the Microsoft C runtime (and Go, and Node)
// parse it one way, which windows.ComposeCommandLine writes. A batch file
// (.bat, .cmd: how npm installs every CLI on Windows) is run by cmd.exe,
// which first reads the whole line its own way: & | < > ( ) ^ end or
// redirect the command outside double quotes, and %NAME% (and !NAME! where
// delayed expansion is on) expand even inside them. A prompt passed as an
// argument would then be run as commands. Text is text: batchCommandLine
// quotes every argument, and refuses the characters no quoting protects.

// isBatch reports a program cmd.exe must run: a .bat or .cmd file.
func isBatch(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".bat", ".cmd":
		return true
	}
	return false
}

// batchCommandLine is the command line that runs the batch file script
// with args through cmd.exe (/d: no AutoRun commands; /s /c: run what is
// between the outer quotes as it is). Each argument is in double quotes,
// inside which cmd.exe takes & | < > ( ) ^ as text, written so that the
// program the batch file hands %* to (node.exe, with the C runtime's
// rules) reads it back unchanged. An argument holding what no quoting
// protects from cmd.exe (" % ! or a line break) is an error.
func batchCommandLine(script string, args []string) (string, error) {
	var b strings.Builder
	b.WriteString(`cmd.exe /d /s /c "`)
	for i, a := range append([]string{script}, args...) {
		if j := strings.IndexAny(a, "\"%!\r\n\x00"); j >= 0 {
			what := "the program's path"
			if i > 0 {
				what = fmt.Sprintf("argument %d", i)
			}
			return "", fmt.Errorf("ptyhost: %s holds %q, which cmd.exe would not take as text, and %s is a batch file that cmd.exe runs: pass the program itself (an .exe) instead of its batch file, or leave out %q",
				what, a[j], filepath.Base(script), a[j])
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('"')
		// The C runtime reads backslashes before a quote as escapes:
		// double the ones that end the argument, so the quote still
		// closes it.
		trail := len(a) - len(strings.TrimRight(a, `\`))
		b.WriteString(a)
		b.WriteString(strings.Repeat(`\`, trail))
		b.WriteByte('"')
	}
	b.WriteByte('"')
	return b.String(), nil
}

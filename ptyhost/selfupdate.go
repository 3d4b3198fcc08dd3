package ptyhost

import (
	"path/filepath"
	"regexp"
	"strings"
)

// managers are the package managers' programs, as run directly or by an
// interpreter ("node …/npm-cli.js", "/bin/sh …/npm" for a script).
var managers = map[string]bool{"npm": true, "npm-cli.js": true, "pnpm": true, "pnpm.cjs": true, "pnpm.js": true,
	"bun": true, "yarn": true, "yarn.js": true, "yarn.cjs": true}

// globalInstall is what follows a manager that installs or updates a
// program for the whole machine: "update -g cline", "i -g @continuedev/cli",
// "-g install x", "add --global x", yarn's "global add x".
var globalInstall = regexp.MustCompile(`^(?:(?:\S+\s+)*(?:i|install|add|update|upgrade|up)\s+(?:\S+\s+)*(?:-g|--global)\b|` +
	`(?:\S+\s+)*(?:-g|--global)\s+(?:\S+\s+)*(?:i|install|add|update|upgrade|up)\b|global\s+(?:add|upgrade)\b)`)

// IsSelfUpdate reports a command line that installs or updates a program
// for the whole machine: an agent updating itself.
func IsSelfUpdate(cmdline string) bool {
	words := strings.Fields(cmdline)
	for i, w := range words {
		if managers[filepath.Base(w)] {
			return globalInstall.MatchString(strings.Join(words[i+1:], " "))
		}
	}
	return false
}

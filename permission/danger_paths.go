package permission

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/kballard/go-shellquote"
)

// writers are commands whose path arguments they write, move or delete;
// for cp and install only the last argument (the destination) is written.
var writers = map[string]bool{
	"rm": true, "rmdir": true, "unlink": true, "shred": true, "mv": true, "cp": true, "install": true,
	"tee": true, "touch": true, "mkdir": true, "truncate": true, "chmod": true, "chown": true, "chgrp": true, "ln": true,
}

// segmentSplit cuts a command line into simple commands.
var segmentSplit = regexp.MustCompile(`\|\||&&|[;|&\n]`)

// redirect is an output redirection token: >, >>, 2>, &>, with or
// without its path attached.
var redirect = regexp.MustCompile(`^(?:\d|&)?>>?\|?(.*)$`)

// writesOutside reports whether command writes, moves or deletes a path
// outside cwd (through a writer command or an output redirection). The
// system's scratch places are not outside: /dev/null and friends, /tmp
// and $TMPDIR. Words the shell would expand ($VAR, globs) are judged as
// written, so ~ and $HOME count as the home directory.
func writesOutside(command, cwd string) bool {
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	for _, seg := range segmentSplit.Split(command, -1) {
		words, err := shellquote.Split(seg)
		if err != nil {
			words = strings.Fields(seg)
		}
		for _, p := range writtenPaths(words) {
			if outside(p, cwd) {
				return true
			}
		}
	}
	return false
}

// writtenPaths lists the paths a simple command writes.
func writtenPaths(words []string) []string {
	var paths, args []string
	cmd := ""
	for i := 0; i < len(words); i++ {
		w := words[i]
		if m := redirect.FindStringSubmatch(w); m != nil && strings.Contains(w, ">") {
			switch {
			case m[1] != "":
				paths = append(paths, m[1])
			case i+1 < len(words):
				paths = append(paths, words[i+1])
				i++
			}
			continue
		}
		switch {
		case cmd == "" && (w == "sudo" || w == "env" || w == "command" || strings.Contains(w, "=") && !strings.HasPrefix(w, "-")):
			continue // a prefix: the command comes next
		case cmd == "":
			cmd = filepath.Base(w)
		case !strings.HasPrefix(w, "-"):
			args = append(args, w)
		}
	}
	if !writers[cmd] || len(args) == 0 {
		return paths
	}
	switch cmd {
	case "cp", "install", "ln":
		return append(paths, args[len(args)-1])
	case "chmod", "chown", "chgrp":
		return append(paths, args[1:]...) // the first is the mode or owner
	}
	return append(paths, args...) // mv's sources go away too
}

// outside reports whether path p, as the shell would see it from cwd, is
// outside cwd and not a scratch place.
func outside(p, cwd string) bool {
	if p == "" || strings.HasPrefix(p, "&") { // 2>&1
		return false
	}
	home, _ := os.UserHomeDir()
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	case strings.HasPrefix(p, "$HOME") || strings.HasPrefix(p, "${HOME}"):
		p = filepath.Join(home, strings.TrimPrefix(strings.TrimPrefix(p, "${HOME}"), "$HOME"))
	case strings.HasPrefix(p, "$"):
		return false // another variable: unknown, not judged
	case !filepath.IsAbs(p):
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	for _, scratch := range scratchDirs() {
		if within(p, scratch) {
			return false
		}
	}
	return !within(p, filepath.Clean(cwd))
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

func scratchDirs() []string {
	dirs := []string{"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd", "/tmp", "/var/tmp"}
	if t := os.Getenv("TMPDIR"); t != "" {
		dirs = append(dirs, filepath.Clean(t))
	}
	return dirs
}

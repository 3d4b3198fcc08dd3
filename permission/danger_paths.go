package permission

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// The path checks: outside-cwd (a command or file tool writes outside
// the working directory), writes-path (it writes a path a rule names)
// and touches-path (it names such a path at all: read or written). A
// rule's paths are data: "/etc/" is that directory and below, "name/"
// a directory of that name anywhere, anything else a file name glob
// ("id_rsa*") anywhere in the path.

// writers are commands whose path arguments they write, move or delete;
// for cp, install and ln only the last argument (the destination) is
// written.
var writers = map[string]bool{
	"rm": true, "rmdir": true, "unlink": true, "shred": true, "mv": true, "cp": true, "install": true,
	"tee": true, "touch": true, "mkdir": true, "truncate": true, "chmod": true, "chown": true, "chgrp": true, "ln": true,
	"rsync": true, "scp": true,
}

// checkCommand runs a rule's built-in check on a simple command.
func (s *Dangers) checkCommand(r *DangerRule, c simple, vs [][]string) bool {
	switch r.Check {
	case "outside-cwd":
		cwd := s.cwdOrWd()
		for _, p := range writtenPaths(c, vs) {
			if outside(p, cwd) {
				return true
			}
		}
	case "writes-path":
		for _, p := range writtenPaths(c, vs) {
			if s.writesTo(r, p) {
				return true
			}
		}
	case "touches-path":
		for _, w := range namedPaths(c, vs) {
			if s.touches(r, w) {
				return true
			}
		}
	}
	return false
}

// writtenPaths lists the paths a simple command writes: its output
// redirections' targets, and the operands of a program that writes them.
func writtenPaths(c simple, vs [][]string) []string {
	var paths []string
	for _, r := range c.redirs {
		if r.writes() {
			paths = append(paths, r.target)
		}
	}
	if len(vs) == 0 {
		return paths
	}
	v := vs[len(vs)-1]
	var args []string
	inPlace := false
	for _, w := range v[1:] {
		switch {
		case v[0] == "dd" && strings.HasPrefix(w, "of="):
			paths = append(paths, strings.TrimPrefix(w, "of="))
		case v[0] == "sed" && (strings.HasPrefix(w, "-i") || strings.HasPrefix(w, "--in-place")),
			v[0] == "perl" && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "i"):
			inPlace = true
		case !strings.HasPrefix(w, "-"):
			args = append(args, w)
		}
	}
	switch {
	case (v[0] == "sed" || v[0] == "perl") && inPlace && len(args) > 1:
		return append(paths, args[1:]...) // the first is the script
	case !writers[v[0]] || len(args) == 0:
		return paths
	case v[0] == "cp" || v[0] == "install" || v[0] == "ln" || v[0] == "rsync" || v[0] == "scp":
		return append(paths, args[len(args)-1])
	case v[0] == "chmod" || v[0] == "chown" || v[0] == "chgrp":
		return append(paths, args[1:]...) // the first is the mode or owner
	}
	return append(paths, args...) // mv's sources go away too
}

// namedPaths lists every word of a simple command that may name a path:
// its words and its redirections' targets. What echo and printf print
// is text, not a path they open.
func namedPaths(c simple, vs [][]string) []string {
	var words []string
	if len(vs) > 0 {
		words = vs[0]
		if inner := vs[len(vs)-1]; inner[0] == "echo" || inner[0] == "printf" {
			words = words[:len(words)-len(inner)+1]
		}
	}
	for _, r := range c.redirs {
		words = append(words, r.target)
	}
	return words
}

// writesTo reports whether writing p (as written, seen from the working
// directory) writes a path the rule names. The system's scratch places
// are never such a path, nor a project below a named directory
// (/var/www/site as the working directory).
func (s *Dangers) writesTo(r *DangerRule, p string) bool {
	cwd := s.cwdOrWd()
	abs, ok := resolve(p, cwd)
	if !ok {
		return false
	}
	for _, scratch := range scratchDirs() {
		if within(abs, scratch) {
			return false
		}
	}
	for _, pat := range r.Paths {
		if !strings.HasPrefix(pat, "/") {
			if namesPath(pat, p) || namesPath(pat, abs) {
				return true
			}
			continue
		}
		dir := strings.TrimSuffix(pat, "/")
		if within(abs, dir) && !(within(abs, cwd) && within(cwd, dir) && cwd != dir) {
			return true
		}
	}
	return false
}

// touches reports whether word w names a path the rule names.
func (s *Dangers) touches(r *DangerRule, w string) bool {
	if _, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "-") {
		w = v // --key=~/.ssh/id_rsa
	}
	for _, pat := range r.Paths {
		if !strings.HasPrefix(pat, "/") {
			if namesPath(pat, w) {
				return true
			}
			continue
		}
		if !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "~") && !strings.HasPrefix(w, "$") {
			continue // a relative word: inside the project, or a word that is no path
		}
		if abs, ok := resolve(w, s.cwdOrWd()); ok && within(abs, strings.TrimSuffix(pat, "/")) {
			return true
		}
	}
	return false
}

// namesPath reports whether a relative pattern (name/ or a file name
// glob) names a part of path p.
func namesPath(pat, p string) bool {
	name := strings.TrimSuffix(pat, "/")
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if ok, _ := matchName(name, part); ok {
			return true
		}
	}
	return false
}

// matchName matches one path element against a glob.
func matchName(pat, name string) (bool, error) { return path.Match(pat, name) }

func (s *Dangers) cwdOrWd() string {
	if s.cwd != "" {
		return s.cwd
	}
	wd, _ := os.Getwd()
	return wd
}

// resolve makes p absolute as the shell would see it from cwd: ~ and
// $HOME are the home directory; another variable is unknown (false).
func resolve(p, cwd string) (string, bool) {
	if p == "" || strings.HasPrefix(p, "&") { // 2>&1
		return "", false
	}
	home, _ := os.UserHomeDir()
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	case p == "$HOME" || strings.HasPrefix(p, "$HOME/") || strings.HasPrefix(p, "${HOME}"):
		p = filepath.Join(home, strings.TrimPrefix(strings.TrimPrefix(p, "${HOME}"), "$HOME"))
	case strings.HasPrefix(p, "$"):
		return "", false
	case !filepath.IsAbs(p):
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p), true
}

// outside reports whether path p, as the shell would see it from cwd, is
// outside cwd and not a scratch place. Words the shell would expand are
// judged as written, so ~ and $HOME count as the home directory.
func outside(p, cwd string) bool {
	abs, ok := resolve(p, cwd)
	if !ok {
		return false
	}
	for _, scratch := range scratchDirs() {
		if within(abs, scratch) {
			return false
		}
	}
	return !within(abs, filepath.Clean(cwd))
}

// within reports whether p is dir or below it (with the OS's separator:
// on Windows, a file in the working directory is below it too).
func within(p, dir string) bool {
	sep := string(filepath.Separator)
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, sep)+sep)
}

// scratchDirs are the places any command may write: /dev/null and
// friends, /tmp and the temporary directory ($TMPDIR).
func scratchDirs() []string {
	dirs := []string{"/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd", "/dev/random", "/dev/urandom", "/tmp", "/var/tmp", "/private/tmp"}
	// $TMPDIR where set (else /tmp, listed); %TMP% on Windows.
	dirs = append(dirs, filepath.Clean(os.TempDir()))
	return dirs
}

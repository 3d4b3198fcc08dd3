package driver

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A denied call must leave the files it names as they were: the file a
// Write or Edit names, the words of a command that may be paths (what it
// redirects to, what it removes or creates). A few stat calls before the
// answer and on each settled screen after it; a change is a sign the
// command ran.

// fileState is one file as it was.
type fileState struct {
	path   string
	exists bool
	size   int64
	mod    time.Time
}

type fileStates []fileState

// maxWatched bounds the words of a command that are watched.
const maxWatched = 16

// watchedFiles notes the files p's call names, unless its command is the
// program's own command line.
func (d *driver) watchedFiles(p *pending) fileStates {
	if p.own {
		return nil
	}
	return snapshotFiles(d.cfg.Cwd, p.tool, p.input)
}

// snapshotFiles notes the files a call names, relative to cwd.
func snapshotFiles(cwd, tool string, input map[string]any) fileStates {
	var paths []string
	for _, k := range []string{"file_path", "path", "notebook_path"} {
		if s, ok := input[k].(string); ok && s != "" {
			paths = append(paths, s)
		}
	}
	if cmd, ok := input["command"].(string); ok && tool == "Bash" {
		paths = append(paths, commandPaths(cmd)...)
	}
	var out fileStates
	seen := map[string]bool{}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			if cwd == "" {
				continue
			}
			p = filepath.Join(cwd, p)
		}
		if seen[p] || len(out) >= maxWatched {
			continue
		}
		seen[p] = true
		out = append(out, statFile(p))
	}
	return out
}

func statFile(p string) fileState {
	fi, err := os.Stat(p)
	if err != nil {
		return fileState{path: p}
	}
	return fileState{path: p, exists: true, size: fi.Size(), mod: fi.ModTime()}
}

// changed names the first watched file that is not as it was ("" if none).
func (fs fileStates) changed() string {
	for _, f := range fs {
		now := statFile(f.path)
		switch {
		case now.exists && !f.exists:
			return filepath.Base(f.path) + " was created"
		case !now.exists && f.exists:
			return filepath.Base(f.path) + " was removed"
		case now.exists && (now.size != f.size || !now.mod.Equal(f.mod)):
			return filepath.Base(f.path) + " changed"
		}
	}
	return ""
}

// commandPaths are the words of a shell command that may name files: not
// its program, options, assignments or expansions.
func commandPaths(cmd string) []string {
	var out []string
	first := true
	for _, w := range strings.FieldsFunc(cmd, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || strings.ContainsRune(";|&<>()", r)
	}) {
		w = strings.Trim(w, `'"`)
		switch {
		case w == "":
			continue
		case first:
			first = false
			continue
		case strings.HasPrefix(w, "-"), strings.ContainsAny(w, "$`*?[]{}=~\\"), len(w) > 255:
			continue
		}
		out = append(out, w)
	}
	return out
}

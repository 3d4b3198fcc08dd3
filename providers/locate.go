package providers

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Yume starts yume-cli with its own environment: for an app started from
// the Dock or Finder on macOS, launchd's PATH (/usr/bin:/bin:/usr/sbin:
// /sbin) and none of a shell profile's variables. So a CLI installed with
// npm under nvm, Homebrew or a user prefix is not in PATH: yume-cli looks
// where people install them, as Yume does for `claude`, and finds the
// interpreter (node) a script found there needs.

// Program is where a provider's program was found, and how.
type Program struct {
	// Path is the program to run (absolute, unless --bin named a path).
	Path string
	// How says where it was found: "--bin", "PATH", "nvm v22.11.0", "Homebrew".
	How string
	// Interpreter is the program its first line runs through env
	// ("node" in #!/usr/bin/env node) when PATH has none, and
	// InterpreterDir the folder it was found in, for the caller to add
	// to PATH: the program and what it starts then find it.
	Interpreter, InterpreterDir string
	// InPATH: a name found in PATH, which runs as it is.
	InPATH bool
}

// Search says how to look for programs: the environment yume-cli runs
// with (its PATH, the variables that move an installer's folders), the
// home folder, and the settings file (for what its errors suggest).
type Search struct {
	Getenv func(string) string
	Home   string
	// Settings is the settings file's path, named in errors.
	Settings string
	// GOOS is runtime.GOOS unless a test says otherwise.
	GOOS string
	// Root, when set, is where the system's folders (/opt/homebrew/bin,
	// /usr/local/bin) are looked for instead of /: a test's own tree.
	Root string
}

// SearchNow looks with yume-cli's own environment.
func SearchNow(settingsFile string) Search {
	home, _ := os.UserHomeDir()
	return Search{Getenv: os.Getenv, Home: home, Settings: settingsFile, GOOS: runtime.GOOS}
}

// Locate finds p's program. bin, when given, wins: from says where it was
// given ("--bin", "providers.gemini.bin in FILE:3"); a path must be there,
// a name is looked for as p's own name is. Otherwise p's program is looked
// for in PATH, then in the places people install CLIs (npm's global
// folder, nvm, fnm, Volta, asdf, n, Homebrew, ~/.local/bin, ~/bin, bun,
// pnpm, cargo, go). A script found run through env (#!/usr/bin/env node)
// gets its interpreter found too.
func (s Search) Locate(p *Provider, bin, from string) (Program, error) {
	name := p.Program(bin)
	if name == "" {
		return Program{}, fmt.Errorf("--provider %s needs the program to run: yume-cli --provider %s -- CMD ARGS…", p.Name, p.Name)
	}
	prog, err := s.find(name, from)
	if err != nil {
		if nf, ok := err.(*NotInstalledError); ok {
			nf.Provider, nf.Install = p.Name, p.InstallHint()
		}
		return prog, err
	}
	return prog, s.interpreter(&prog)
}

// LocateCommand finds the program of a command line given after "--":
// a name is looked for as a provider's program is.
func (s Search) LocateCommand(name string) (Program, error) {
	prog, err := s.find(name, "the command after --")
	if err != nil {
		return prog, err
	}
	return prog, s.interpreter(&prog)
}

func (s Search) find(name, from string) (Program, error) {
	if strings.HasPrefix(name, "~/") && s.Home != "" {
		name = filepath.Join(s.Home, name[2:])
	}
	if strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator) {
		if !executable(name) {
			return Program{}, &NotInstalledError{Name: name, Given: orWord(from, "--bin"), Settings: s.Settings}
		}
		return Program{Path: name, How: orWord(from, "--bin")}, nil
	}
	how := func(where string) string {
		if from != "" {
			return from + ", found in " + where
		}
		return where
	}
	if path := s.inPath(name); path != "" {
		return Program{Path: path, How: how("PATH"), InPATH: true}, nil
	}
	for _, d := range s.dirs() {
		if path := inDir(d.path, name); path != "" {
			return Program{Path: path, How: how(d.how)}, nil
		}
	}
	return Program{}, &NotInstalledError{Name: name, Searched: s.searched(), PATH: s.Getenv("PATH"), Settings: s.Settings}
}

func orWord(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// inPath is name in the directories of PATH ("" when none has it);
// relative entries are skipped, as exec.LookPath refuses their results.
func (s Search) inPath(name string) string {
	for _, d := range filepath.SplitList(s.Getenv("PATH")) {
		if filepath.IsAbs(d) {
			if path := inDir(d, name); path != "" {
				return path
			}
		}
	}
	return ""
}

// inDir is dir's executable name (on Windows with PATHEXT's extensions),
// or "".
func inDir(dir, name string) string {
	path, err := exec.LookPath(filepath.Join(dir, name))
	if err != nil {
		return ""
	}
	return path
}

func executable(path string) bool {
	_, err := exec.LookPath(path)
	return err == nil
}

// NotInstalledError says a program was not found, where yume-cli looked,
// and what to do.
type NotInstalledError struct {
	Name string
	// Given names where a path that is not there came from (--bin, the
	// settings file); "" when the name was looked for.
	Given    string
	Searched []string // the places looked in, for a person to read
	PATH     string
	Provider string // "" for a command after --
	Install  string
	Settings string
}

func (e *NotInstalledError) Error() string {
	settings := orWord(e.Settings, "~/.yume/settings.yaml")
	if e.Given != "" {
		fix := "correct it"
		if e.Provider != "" {
			fix = fmt.Sprintf("correct it, or remove it and %s", lowerFirst(e.Install))
		}
		return fmt.Sprintf("%s (%s) does not exist or is not executable: %s", e.Name, e.Given, fix)
	}
	what := e.Name
	if e.Provider != "" && e.Provider != e.Name {
		what = e.Provider + " (" + e.Name + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s is not installed where yume-cli looks: PATH (%s), %s. ", what, orWord(e.PATH, "empty"), strings.Join(e.Searched, ", "))
	if e.Install != "" {
		b.WriteString(upperFirst(strings.TrimSuffix(e.Install, ".")) + "; or, ")
	} else {
		b.WriteString("Install it; or, ")
	}
	fmt.Fprintf(&b, "if it is installed elsewhere (`command -v %s` in a terminal prints where), ", e.Name)
	if e.Provider != "" {
		fmt.Fprintf(&b, "set providers.%s.bin to that path in %s.", e.Provider, settings)
	} else {
		fmt.Fprintf(&b, "give its path after --, or add its folder under path: in %s.", settings)
	}
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// interpreter finds, for a script whose first line runs its interpreter
// through env (#!/usr/bin/env node), that interpreter when PATH has none
// (launchd's PATH has no node): beside the program (nvm's, Homebrew's and
// Volta's bin folders hold node), else in the places programs are looked
// for, the newest Node version first.
func (s Search) interpreter(prog *Program) error {
	if s.GOOS == "windows" {
		return nil // no shebangs: npm writes .cmd wrappers that find node themselves
	}
	interp, line := envInterpreter(prog.Path)
	if interp == "" || s.inPath(interp) != "" {
		return nil
	}
	beside := []dir{{filepath.Dir(prog.Path), "beside it"}}
	if real, err := filepath.EvalSymlinks(prog.Path); err == nil && filepath.Dir(real) != filepath.Dir(prog.Path) {
		beside = append(beside, dir{filepath.Dir(real), "beside it"})
	}
	for _, d := range append(beside, s.dirs()...) {
		if inDir(d.path, interp) != "" {
			prog.Interpreter, prog.InterpreterDir = interp, d.path
			return nil
		}
	}
	return fmt.Errorf("%s (found: %s) runs with %s (its first line is %q), and no %s is in PATH (%s), beside it, or in %s: install %s, or add the folder that holds %s under path: in %s",
		prog.Path, prog.How, interp, line, interp, orWord(s.Getenv("PATH"), "empty"), strings.Join(s.searched(), ", "),
		interpreterName(interp), interp, orWord(s.Settings, "~/.yume/settings.yaml"))
}

func interpreterName(interp string) string {
	if interp == "node" {
		return "Node.js"
	}
	return interp
}

// envInterpreter is the program a script's first line runs through env
// ("node" for #!/usr/bin/env node and #!/usr/bin/env -S node --flag), and
// that line; "" for a binary or any other first line.
func envInterpreter(path string) (interp, line string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := io.ReadFull(f, buf)
	first, _, _ := strings.Cut(string(buf[:n]), "\n")
	if !strings.HasPrefix(first, "#!") {
		return "", ""
	}
	fields := strings.Fields(first[2:])
	if len(fields) < 2 || filepath.Base(fields[0]) != "env" {
		return "", ""
	}
	for _, f := range fields[1:] {
		switch {
		case strings.HasPrefix(f, "-"), strings.Contains(f, "="):
			continue // env's options (-S), a VAR=value
		}
		return f, strings.TrimSpace(first)
	}
	return "", ""
}

// dir is a folder to look in and how to say it was found there.
type dir struct{ path, how string }

// place is one kind of install location: its name and folders, as a
// person reads them in an error.
type place struct {
	name, pattern string
	dirs          []dir
}

// dirs are the folders of every place, in order, once each, PATH's left
// out (already looked in).
func (s Search) dirs() []dir {
	seen := map[string]bool{}
	for _, d := range filepath.SplitList(s.Getenv("PATH")) {
		seen[filepath.Clean(d)] = true
	}
	var out []dir
	for _, p := range s.places() {
		for _, d := range p.dirs {
			if d.path == "" || seen[filepath.Clean(d.path)] {
				continue
			}
			seen[filepath.Clean(d.path)] = true
			out = append(out, d)
		}
	}
	return out
}

// searched names each place, for an error.
func (s Search) searched() []string {
	var out []string
	for _, p := range s.places() {
		switch {
		case p.name == "" && p.pattern == "":
		case p.name == "":
			out = append(out, p.pattern)
		case p.pattern == "":
			out = append(out, p.name)
		default:
			out = append(out, p.name+" ("+p.pattern+")")
		}
	}
	return out
}

// places are where people install coding CLIs, in the order they are
// looked in.
func (s Search) places() []place {
	h := s.Home
	home := func(parts ...string) string {
		if h == "" {
			return ""
		}
		return filepath.Join(append([]string{h}, parts...)...)
	}
	env := func(k string) string {
		if s.Getenv == nil {
			return ""
		}
		return s.Getenv(k)
	}
	short := func(p string) string { return s.short(p) }
	several := func(name string, paths ...string) place {
		pl := place{name: name}
		var pats []string
		for _, d := range paths {
			if d != "" {
				pl.dirs = append(pl.dirs, dir{d, orWord(name, short(d))})
				pats = append(pats, short(d))
			}
		}
		pl.pattern = strings.Join(pats, ", ")
		return pl
	}
	one := func(name, path string) place { return several(name, path) }
	var ps []place
	mac := s.GOOS == "darwin"
	if s.GOOS == "windows" {
		appdata := env("APPDATA")
		if appdata != "" {
			ps = append(ps, place{name: "npm's global folder", pattern: filepath.Join(appdata, "npm"),
				dirs: []dir{{filepath.Join(appdata, "npm"), "npm's global folder"}}})
		}
		return append(ps, one("bun", home(".bun", "bin")), one("cargo", home(".cargo", "bin")), one("go", home("go", "bin")))
	}
	ps = append(ps, s.npmPlace())
	ps = append(ps, s.nodeVersions("nvm", orWord(env("NVM_DIR"), home(".nvm")), "versions/node", "bin", nvmDefault))
	fnm := env("FNM_DIR")
	if fnm == "" {
		def := filepath.Join(orWord(env("XDG_DATA_HOME"), home(".local", "share")), "fnm")
		if mac {
			def = home("Library", "Application Support", "fnm")
		}
		fnm = def
		if !isDir(def) && isDir(home(".fnm")) {
			fnm = home(".fnm") // older releases
		}
	}
	ps = append(ps, s.nodeVersions("fnm", fnm, "node-versions", "installation/bin", fnmDefault))
	ps = append(ps, one("Volta", filepath.Join(orWord(env("VOLTA_HOME"), home(".volta")), "bin")))
	asdf := orWord(env("ASDF_DATA_DIR"), home(".asdf"))
	ap := s.nodeVersions("asdf", asdf, "installs/nodejs", "bin", nil)
	ap.dirs = append(ap.dirs, dir{filepath.Join(asdf, "shims"), "asdf shims"})
	ap.pattern += ", " + short(filepath.Join(asdf, "shims"))
	ps = append(ps, ap)
	mise := filepath.Join(orWord(env("XDG_DATA_HOME"), home(".local", "share")), "mise")
	ps = append(ps, s.nodeVersions("mise", orWord(env("MISE_DATA_DIR"), mise), "installs/node", "bin", nil))
	if n := env("N_PREFIX"); n != "" { // n's default, /usr/local, is Homebrew's on Intel Macs
		ps = append(ps, one("n", filepath.Join(n, "bin")))
	}
	var brewDirs []string
	if b := env("HOMEBREW_PREFIX"); b != "" {
		brewDirs = append(brewDirs, filepath.Join(b, "bin"))
	}
	sys := func(p string) string { return filepath.Join(s.Root, p) }
	if mac {
		brewDirs = append(brewDirs, sys("/opt/homebrew/bin"), sys("/usr/local/bin"))
	} else {
		brewDirs = append(brewDirs, sys("/home/linuxbrew/.linuxbrew/bin"), home(".linuxbrew", "bin"), sys("/usr/local/bin"))
	}
	ps = append(ps, several("Homebrew", brewDirs...), several("", home(".local", "bin"), home("bin")))
	ps = append(ps, one("bun", filepath.Join(orWord(env("BUN_INSTALL"), home(".bun")), "bin")))
	pnpm := filepath.Join(orWord(env("XDG_DATA_HOME"), home(".local", "share")), "pnpm")
	if mac {
		pnpm = home("Library", "pnpm")
	}
	ps = append(ps, several("pnpm", env("PNPM_HOME"), pnpm))
	ps = append(ps, one("cargo", filepath.Join(orWord(env("CARGO_HOME"), home(".cargo")), "bin")))
	goDirs := []string{env("GOBIN")}
	for _, g := range filepath.SplitList(env("GOPATH")) {
		if g != "" {
			goDirs = append(goDirs, filepath.Join(g, "bin"))
		}
	}
	ps = append(ps, several("go", append(goDirs, home("go", "bin"))...))
	// A folder is said once, in the first place that has it.
	said := map[string]bool{}
	for i := range ps {
		var keep []string
		for _, p := range strings.Split(ps[i].pattern, ", ") {
			if p != "" && !said[p] {
				said[p] = true
				keep = append(keep, p)
			}
		}
		ps[i].pattern = strings.Join(keep, ", ")
	}
	return ps
}

// short writes a folder under home with ~.
func (s Search) short(p string) string {
	if s.Home != "" {
		if rel, err := filepath.Rel(s.Home, p); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return p
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

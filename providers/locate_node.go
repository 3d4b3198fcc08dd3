package providers

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// npmPlace is npm's global folder: the prefix of $NPM_CONFIG_PREFIX, of
// the user's .npmrc (`prefix=`), and the usual user prefixes; npm's
// default prefix is Node's own folder, looked in with the Node versions
// and Homebrew.
func (s Search) npmPlace() place {
	pl := place{name: "npm's global folder"}
	add := func(prefix, how string) {
		if prefix == "" {
			return
		}
		d := filepath.Join(prefix, "bin")
		pl.dirs = append(pl.dirs, dir{d, "npm's global folder (" + how + ")"})
	}
	for _, k := range []string{"NPM_CONFIG_PREFIX", "npm_config_prefix"} {
		add(s.expand(s.Getenv(k)), "$"+k)
	}
	rc := s.Getenv("NPM_CONFIG_USERCONFIG")
	if rc == "" && s.Home != "" {
		rc = filepath.Join(s.Home, ".npmrc")
	}
	if rc != "" {
		add(s.expand(npmrcPrefix(rc)), "prefix in "+s.short(rc))
	}
	if s.Home != "" {
		add(filepath.Join(s.Home, ".npm-global"), "a user prefix")
		add(filepath.Join(s.Home, ".npm-packages"), "a user prefix")
	}
	var pats []string
	for _, d := range pl.dirs {
		pats = append(pats, s.short(d.path))
	}
	pl.pattern = strings.Join(pats, ", ")
	return pl
}

// npmrcPrefix is the prefix an .npmrc sets ("" when none).
func npmrcPrefix(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	prefix := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(k) == "prefix" {
			prefix = strings.Trim(strings.TrimSpace(v), `"'`) // the last one wins, as in npm
		}
	}
	return prefix
}

// expand resolves ~/, $HOME and ${HOME} in a configured folder; a
// relative one is dropped.
func (s Search) expand(p string) string {
	if p == "" {
		return ""
	}
	if s.Home != "" {
		switch {
		case p == "~":
			p = s.Home
		case strings.HasPrefix(p, "~/"):
			p = filepath.Join(s.Home, p[2:])
		}
		p = strings.ReplaceAll(strings.ReplaceAll(p, "${HOME}", s.Home), "$HOME", s.Home)
	}
	if !filepath.IsAbs(p) {
		return ""
	}
	return p
}

// nodeVersions is a Node version manager's place: root/versions/vX/bin
// for each installed version, the default first (def reads it, nil: none),
// then the newest first.
func (s Search) nodeVersions(name, root, versions, bin string, def func(root string, installed []string) string) place {
	pl := place{name: name, pattern: s.short(filepath.Join(root, versions, "*", bin))}
	if root == "" {
		return place{name: name}
	}
	ents, _ := os.ReadDir(filepath.Join(root, versions))
	var installed []string
	for _, e := range ents {
		if e.IsDir() && versionRE.MatchString(e.Name()) {
			installed = append(installed, e.Name())
		}
	}
	sort.SliceStable(installed, func(i, j int) bool {
		return CompareVersions(versionRE.FindString(installed[i]), versionRE.FindString(installed[j])) > 0
	})
	if def != nil {
		if d := def(root, installed); d != "" {
			for i, v := range installed {
				if v == d {
					installed = append(append([]string{d}, installed[:i]...), installed[i+1:]...)
					break
				}
			}
		}
	}
	for _, v := range installed {
		d := filepath.Join(root, versions, v, bin)
		pl.dirs = append(pl.dirs, dir{d, name + " " + v})
	}
	return pl
}

// nvmDefault is the installed version nvm's default alias names
// (alias/default: "22", "v22.11.0", "lts/*", "node"), following aliases.
func nvmDefault(root string, installed []string) string {
	alias := "default"
	for range 5 {
		b, err := os.ReadFile(filepath.Join(root, "alias", filepath.FromSlash(alias)))
		if err != nil {
			break
		}
		alias = strings.TrimSpace(string(b))
		if alias == "" {
			return ""
		}
	}
	switch alias {
	case "node", "stable":
		if len(installed) > 0 {
			return installed[0]
		}
		return ""
	}
	want := "v" + strings.TrimPrefix(alias, "v")
	for _, v := range installed { // newest first: the newest that matches
		if v == want || strings.HasPrefix(v, want+".") {
			return v
		}
	}
	return ""
}

// fnmDefault is the version fnm's default alias links to.
func fnmDefault(root string, installed []string) string {
	target, err := filepath.EvalSymlinks(filepath.Join(root, "aliases", "default"))
	if err != nil {
		return ""
	}
	for _, v := range installed {
		if strings.Contains(filepath.ToSlash(target), "/"+v+"/") || filepath.Base(filepath.Dir(target)) == v || filepath.Base(target) == v {
			return v
		}
	}
	return ""
}

package providers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree writes files under root: a path ending in "/" is a folder, "->X"
// a symbolic link to X (relative to root when not absolute), any other
// content a file, executable when it starts with "#!".
func tree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		path := filepath.Join(root, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(body, "->"); ok {
			if !filepath.IsAbs(target) {
				target = filepath.Join(root, filepath.FromSlash(target))
			}
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(body, "#!") {
			mode = 0o755
		}
		if err := os.WriteFile(path, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
}

const (
	nodeScript = "#!/usr/bin/env node\nconsole.log('hi')\n"
	binary     = "#!/bin/sh\necho hi\n" // a program that needs no interpreter from PATH
	nodeBin    = "#!/bin/sh\n"          // stands in for node
)

// TestLocate: with launchd's PATH, a provider's program is found where
// people install it, in the order PATH, npm's global folder, nvm (its
// default, then the newest), fnm, Volta, asdf, mise, Homebrew, ~/.local/bin
// and ~/bin, bun, pnpm, cargo, go; --bin and the settings' bin win; a
// #!/usr/bin/env node script found outside PATH gets the node beside it
// (or of a Node version) on PATH.
func TestLocate(t *testing.T) {
	cases := []struct {
		name   string
		goos   string
		home   map[string]string // under HOME
		root   map[string]string // under the system root (Homebrew's folders)
		env    map[string]string // besides PATH=/usr/bin:/bin, HOME
		bin    string            // --bin or the settings' bin ("{home}" is HOME)
		from   string
		want   string   // the path found, under HOME ("~/…") or the root ("/…")
		how    string   // substring of Program.How
		interp string   // the interpreter's folder, "" for none
		err    []string // substrings of the error; nil: found
	}{
		{name: "nvm, newest version first",
			home: map[string]string{".nvm/versions/node/v9.11.2/bin/gemini": binary, ".nvm/versions/node/v22.11.0/bin/gemini": binary,
				".nvm/versions/node/v18.20.4/bin/gemini": binary},
			want: "~/.nvm/versions/node/v22.11.0/bin/gemini", how: "nvm v22.11.0"},
		{name: "nvm, its default alias first",
			home: map[string]string{".nvm/versions/node/v18.20.4/bin/gemini": binary, ".nvm/versions/node/v22.11.0/bin/gemini": binary,
				".nvm/alias/default": "18\n"},
			want: "~/.nvm/versions/node/v18.20.4/bin/gemini", how: "nvm v18.20.4"},
		{name: "nvm, default alias through lts names",
			home: map[string]string{".nvm/versions/node/v20.18.0/bin/gemini": binary, ".nvm/versions/node/v22.11.0/bin/gemini": binary,
				".nvm/alias/default": "lts/*", ".nvm/alias/lts/*": "lts/iron", ".nvm/alias/lts/iron": "v20.18.0"},
			want: "~/.nvm/versions/node/v20.18.0/bin/gemini", how: "nvm v20.18.0"},
		{name: "nvm moved by NVM_DIR",
			home: map[string]string{"n/versions/node/v22.0.0/bin/gemini": binary, ".nvm/versions/node/v23.0.0/bin/gemini": binary},
			env:  map[string]string{"NVM_DIR": "{home}/n"},
			want: "~/n/versions/node/v22.0.0/bin/gemini", how: "nvm v22.0.0"},
		{name: "npm prefix of .npmrc before nvm",
			home: map[string]string{".npmrc": "fund=false\nprefix = ~/.npm-g\n", ".npm-g/bin/codex": binary,
				".nvm/versions/node/v22.0.0/bin/codex": binary},
			want: "~/.npm-g/bin/codex", how: "prefix in ~/.npmrc"},
		{name: "npm prefix of NPM_CONFIG_PREFIX",
			home: map[string]string{"pfx/bin/codex": binary}, env: map[string]string{"NPM_CONFIG_PREFIX": "{home}/pfx"},
			want: "~/pfx/bin/codex", how: "$NPM_CONFIG_PREFIX"},
		{name: "fnm's default alias",
			home: map[string]string{".local/share/fnm/node-versions/v20.1.0/installation/bin/qwen": binary,
				".local/share/fnm/node-versions/v22.1.0/installation/bin/qwen": binary,
				".local/share/fnm/aliases/default":                             "->.local/share/fnm/node-versions/v20.1.0/installation"},
			want: "~/.local/share/fnm/node-versions/v20.1.0/installation/bin/qwen", how: "fnm v20.1.0"},
		{name: "fnm on macOS", goos: "darwin",
			home: map[string]string{"Library/Application Support/fnm/node-versions/v22.1.0/installation/bin/qwen": binary},
			want: "~/Library/Application Support/fnm/node-versions/v22.1.0/installation/bin/qwen", how: "fnm v22.1.0"},
		{name: "Volta", home: map[string]string{".volta/bin/copilot": binary}, want: "~/.volta/bin/copilot", how: "Volta"},
		{name: "asdf's Node before its shims",
			home: map[string]string{".asdf/shims/copilot": binary, ".asdf/installs/nodejs/22.1.0/bin/copilot": binary},
			want: "~/.asdf/installs/nodejs/22.1.0/bin/copilot", how: "asdf 22.1.0"},
		{name: "asdf shims", home: map[string]string{".asdf/shims/copilot": binary}, want: "~/.asdf/shims/copilot", how: "asdf shims"},
		{name: "Homebrew on Apple silicon", goos: "darwin", root: map[string]string{"opt/homebrew/bin/claude": binary},
			want: "/opt/homebrew/bin/claude", how: "Homebrew"},
		{name: "Homebrew on Linux", root: map[string]string{"home/linuxbrew/.linuxbrew/bin/claude": binary},
			want: "/home/linuxbrew/.linuxbrew/bin/claude", how: "Homebrew"},
		{name: "nvm before Homebrew", goos: "darwin", root: map[string]string{"usr/local/bin/claude": binary},
			home: map[string]string{".nvm/versions/node/v22.0.0/bin/claude": binary},
			want: "~/.nvm/versions/node/v22.0.0/bin/claude", how: "nvm"},
		{name: "~/.local/bin", home: map[string]string{".local/bin/claude": binary}, want: "~/.local/bin/claude", how: "~/.local/bin"},
		{name: "~/bin", home: map[string]string{"bin/aider": binary}, want: "~/bin/aider", how: "~/bin"},
		{name: "bun", home: map[string]string{".bun/bin/opencode": binary}, want: "~/.bun/bin/opencode", how: "bun"},
		{name: "pnpm on macOS", goos: "darwin", home: map[string]string{"Library/pnpm/kilo": binary}, want: "~/Library/pnpm/kilo", how: "pnpm"},
		{name: "pnpm on Linux", home: map[string]string{".local/share/pnpm/kilo": binary}, want: "~/.local/share/pnpm/kilo", how: "pnpm"},
		{name: "cargo", home: map[string]string{".cargo/bin/codex": binary}, want: "~/.cargo/bin/codex", how: "cargo"},
		{name: "go, GOPATH's bin", home: map[string]string{"gp/bin/opencode": binary, "go/bin/opencode": binary},
			env: map[string]string{"GOPATH": "{home}/gp"}, want: "~/gp/bin/opencode", how: "go"},
		{name: "a folder that holds no such program is passed over",
			home: map[string]string{".nvm/versions/node/v23.0.0/bin/": "", ".nvm/versions/node/v22.0.0/bin/gemini": binary},
			want: "~/.nvm/versions/node/v22.0.0/bin/gemini"},
		{name: "not executable is not a program", home: map[string]string{".local/bin/gemini": "not a program", "bin/gemini": binary},
			want: "~/bin/gemini"},
		{name: "--bin wins", home: map[string]string{"mine/gemini": binary, ".nvm/versions/node/v22.0.0/bin/gemini": binary},
			bin: "{home}/mine/gemini", from: "--bin", want: "~/mine/gemini", how: "--bin"},
		{name: "the settings' bin with ~/", home: map[string]string{"mine/gemini": binary},
			bin: "~/mine/gemini", from: "providers.gemini.bin in settings.yaml:2", want: "~/mine/gemini", how: "providers.gemini.bin"},
		{name: "a bin by name is looked for as the program is", home: map[string]string{".nvm/versions/node/v22.0.0/bin/gemini-nightly": binary},
			bin: "gemini-nightly", from: "--bin", want: "~/.nvm/versions/node/v22.0.0/bin/gemini-nightly", how: "--bin, found in nvm v22.0.0"},
		{name: "a bin that is not there", bin: "{home}/gone/gemini", from: "providers.gemini.bin in settings.yaml:2",
			home: map[string]string{".nvm/versions/node/v22.0.0/bin/gemini": binary},
			err:  []string{"/gone/gemini (providers.gemini.bin in settings.yaml:2) does not exist or is not executable", "npm install -g @google/gemini-cli"}},
		{name: "not installed anywhere", goos: "darwin", home: map[string]string{".nvm/versions/node/v22.0.0/bin/codex": binary},
			err: []string{"gemini is not installed where yume-cli looks: PATH (/usr/bin:/bin)", "nvm (~/.nvm/versions/node/*/bin)",
				"npm's global folder (~/.npm-global/bin", "Homebrew (", "/opt/homebrew/bin", "Volta (~/.volta/bin)", "asdf (", "fnm (",
				"bun (~/.bun/bin)", "pnpm (~/Library/pnpm)", "cargo (~/.cargo/bin)", "go (~/go/bin)", "~/.local/bin, ~/bin",
				"Install it with `npm install -g @google/gemini-cli`", "set providers.gemini.bin to that path in /y/settings.yaml"}},
		// The interpreter of a script found outside PATH.
		{name: "node beside the program",
			home: map[string]string{".nvm/versions/node/v22.0.0/bin/gemini": nodeScript, ".nvm/versions/node/v22.0.0/bin/node": nodeBin},
			want: "~/.nvm/versions/node/v22.0.0/bin/gemini", interp: "~/.nvm/versions/node/v22.0.0/bin"},
		{name: "node of a Node version, for a script elsewhere",
			home: map[string]string{".local/bin/gemini": nodeScript, ".nvm/versions/node/v20.0.0/bin/node": nodeBin,
				".nvm/versions/node/v22.0.0/bin/node": nodeBin},
			want: "~/.local/bin/gemini", interp: "~/.nvm/versions/node/v22.0.0/bin"},
		{name: "node with env -S and options",
			home: map[string]string{".volta/bin/qwen": "#!/usr/bin/env -S node --no-warnings=ExperimentalWarning\n", ".volta/bin/node": nodeBin},
			want: "~/.volta/bin/qwen", interp: "~/.volta/bin"},
		{name: "node beside a link's target",
			home: map[string]string{"pkgs/cli/bin/gemini.js": nodeScript, "pkgs/cli/bin/node": nodeBin, ".local/bin/gemini": "->pkgs/cli/bin/gemini.js"},
			want: "~/.local/bin/gemini", interp: "~/pkgs/cli/bin"},
		{name: "node in PATH is enough",
			home: map[string]string{".nvm/versions/node/v22.0.0/bin/gemini": nodeScript, ".nvm/versions/node/v22.0.0/bin/node": nodeBin, "sys/node": nodeBin},
			env:  map[string]string{"PATH": "{home}/sys"}, want: "~/.nvm/versions/node/v22.0.0/bin/gemini"},
		{name: "no node anywhere", home: map[string]string{".local/bin/gemini": nodeScript},
			err: []string{"~/.local/bin", "runs with node", `"#!/usr/bin/env node"`, "install Node.js", "under path: in /y/settings.yaml"}},
	}
	p, _ := Lookup("gemini")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, root := t.TempDir(), t.TempDir()
			tree(t, home, c.home)
			tree(t, root, c.root)
			// launchd's PATH, in the test's own root: no node there, as on a Mac.
			env := map[string]string{"PATH": filepath.Join(root, "usr/bin") + ":" + filepath.Join(root, "bin"), "HOME": home}
			for k, v := range c.env {
				env[k] = strings.ReplaceAll(v, "{home}", home)
			}
			goos := c.goos
			if goos == "" {
				goos = "linux"
			}
			s := Search{Getenv: func(k string) string { return env[k] }, Home: home, Settings: "/y/settings.yaml", GOOS: goos, Root: root}
			name := "gemini" // the program looked for: what the case wants
			if c.want != "" && c.bin == "" {
				name = filepath.Base(c.want)
			}
			prog := &Provider{Name: "gemini", Bin: name, Install: p.Install}
			got, err := s.Locate(prog, strings.ReplaceAll(c.bin, "{home}", home), c.from)
			unhome := func(s string) string {
				s = strings.ReplaceAll(s, home, "~")
				return strings.ReplaceAll(s, root, "")
			}
			if c.err != nil {
				if err == nil {
					t.Fatalf("found %+v, want an error", got)
				}
				for _, w := range c.err {
					if !strings.Contains(unhome(err.Error()), w) {
						t.Errorf("error lacks %q:\n%s", w, unhome(err.Error()))
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if unhome(got.Path) != c.want || !strings.Contains(got.How, c.how) || unhome(got.InterpreterDir) != c.interp {
				t.Errorf("found %s (%q), interpreter in %q; want %s (%q), interpreter in %q",
					unhome(got.Path), got.How, unhome(got.InterpreterDir), c.want, c.how, c.interp)
			}
		})
	}
}

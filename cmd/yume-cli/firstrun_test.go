//go:build unix

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// fakeNode stands in for node: it runs the script it is given with sh
// (the script's #! line is a comment there), as node runs a CLI's script.
const fakeNode = "#!/bin/sh\nexec /bin/sh \"$@\"\n"

// nodeAider is fakeAider as npm installs a Node CLI: run through env by
// an interpreter that launchd's PATH does not have.
var nodeAider = strings.Replace(fakeAider, "#!/bin/sh", "#!/usr/bin/env yume-fake-node", 1)

// TestFirstRunAsYumeStartsIt: started as Yume starts it (launchd's PATH,
// HOME, nothing else), yume-cli finds the CLI where people install it,
// and the interpreter a script found there needs; the settings' bin wins;
// a CLI found nowhere, an interpreter found nowhere and a key that only a
// shell profile exports are errors Yume shows (system/error), saying what
// to do, the key's value never said.
func TestFirstRunAsYumeStartsIt(t *testing.T) {
	bin := buildCLI(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const secret = "sk-ant-api03-very-secret-key-value"
	cases := []struct {
		name     string
		provider string
		home     map[string]string // files under HOME ("{self}": this test binary)
		fails    bool
		ran      string   // the marker the program that ran wrote ("" for none)
		stderr   []string // in --verbose's stderr
		sysErr   []string // in the system error; nil: none
	}{
		{name: "in ~/.local/bin", provider: "aider", home: map[string]string{".local/bin/aider": fakeAider},
			ran: "made", stderr: []string{"/.local/bin/aider (found: ~/.local/bin)"}},
		{name: "under nvm, with the node beside it", provider: "aider",
			home: map[string]string{".nvm/versions/node/v22.11.0/bin/aider": nodeAider, ".nvm/versions/node/v22.11.0/bin/yume-fake-node": fakeNode,
				".nvm/versions/node/v20.0.0/bin/": ""},
			ran: "made", stderr: []string{"(found: nvm v22.11.0)", "runs with yume-fake-node from ", "/.nvm/versions/node/v22.11.0/bin, put on PATH"}},
		{name: "the settings' bin before nvm", provider: "aider",
			home: map[string]string{".nvm/versions/node/v22.11.0/bin/aider": "#!/bin/sh\ntouch nvm-ran\n", "mine/aider": fakeAider,
				".yume/settings.yaml": "providers:\n  aider:\n    bin: ~/mine/aider\n"},
			ran: "made", stderr: []string{"(found: providers.aider.bin in "}},
		{name: "the settings' path before the places", provider: "aider",
			home: map[string]string{".nvm/versions/node/v22.11.0/bin/aider": "#!/bin/sh\ntouch nvm-ran\n", "tools/aider": fakeAider,
				".yume/settings.yaml": "path: [~/tools]\n"},
			ran: "made", stderr: []string{"(found: PATH)"}},
		{name: "no interpreter anywhere", provider: "aider", home: map[string]string{".local/bin/aider": nodeAider}, fails: true,
			sysErr: []string{"/.local/bin/aider (found: ~/.local/bin) runs with yume-fake-node", "add the folder that holds yume-fake-node under path: in "}},
		{name: "not installed", provider: "gemini", fails: true,
			sysErr: []string{"gemini is not installed where yume-cli looks: PATH (/usr/bin:/bin)", "nvm (~/.nvm/versions/node/*/bin)",
				"Homebrew (", "Install it with `npm install -g @google/gemini-cli`", "set providers.gemini.bin to that path in ", ".yume/settings.yaml"}},
		{name: "a key only in ~/.zshrc", provider: "claude", fails: true,
			home: map[string]string{".zshrc": "export ANTHROPIC_API_KEY=" + secret + "\n",
				".yume/settings.yaml": "providers:\n  claude:\n    bin: {self}\n    env:\n      YUME_FAKE_CLAUDE: touch made.txt\n"},
			sysErr: []string{"claude finds no credentials when Yume starts it: ANTHROPIC_API_KEY is exported in ~/.zshrc (line 1)",
				"under providers.claude.env in ", `under "env" in ~/.claude/settings.json`, "run `claude` in a terminal and log in"}},
		{name: "the key in the settings file", provider: "claude",
			home: map[string]string{".zshrc": "export ANTHROPIC_API_KEY=" + secret + "\n",
				".yume/settings.yaml": "providers:\n  claude:\n    bin: {self}\n    env:\n      YUME_FAKE_CLAUDE: touch made.txt\n      ANTHROPIC_API_KEY: " + secret + "\n"},
			ran: "made"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, cwd := t.TempDir(), t.TempDir()
			for rel, body := range c.home {
				path := filepath.Join(home, rel)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(rel, "/") {
					continue
				}
				if err := os.WriteFile(path, []byte(strings.ReplaceAll(body, "{self}", self)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			events, raw, stderr := yumeRun{bin: bin, home: home, cwd: cwd, provider: c.provider, fails: c.fails}.run(t, "run: touch made.txt")
			var sysErr string
			for _, e := range events {
				if e["type"] == "system" && e["subtype"] == "error" {
					sysErr, _ = e["message"].(string)
				}
			}
			if (sysErr != "") != (c.sysErr != nil) {
				t.Errorf("system error %q, want one: %v\n%s\n%s", sysErr, c.sysErr != nil, raw, stderr)
			}
			for _, w := range c.sysErr {
				if !strings.Contains(sysErr, w) {
					t.Errorf("the system error lacks %q:\n%s", w, sysErr)
				}
			}
			for _, w := range c.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Contains(raw+stderr, secret) {
				t.Errorf("the key's value was said:\n%s\n%s", raw, stderr)
			}
			_, made := os.Stat(filepath.Join(cwd, "made.txt"))
			if ran := made == nil; ran != (c.ran == "made") {
				t.Errorf("the program ran: %v, want %v\n%s\n%s", ran, c.ran == "made", raw, stderr)
			}
			if _, err := os.Stat(filepath.Join(cwd, "nvm-ran")); err == nil {
				t.Errorf("the program under nvm ran, not the one the settings name")
			}
		})
	}
}

// TestDoctorFromYume: doctor, run in a terminal, says where each CLI was
// found and how, and how a run Yume starts from the Dock would find it;
// a CLI only this terminal's PATH has, and a key only a shell profile
// exports, are problems with what to do.
func TestDoctorFromYume(t *testing.T) {
	useSettings(t, "")
	home := t.TempDir()
	nvm := filepath.Join(home, ".nvm", "versions", "node", "v22.11.0", "bin")
	mine := filepath.Join(home, "work", "tools")
	for path, body := range map[string]string{
		filepath.Join(nvm, "gemini"):  "#!/bin/sh\necho 0.61.0\n",
		filepath.Join(mine, "codex"):  "#!/bin/sh\necho codex-cli 0.171.0\n",
		filepath.Join(home, ".zshrc"): "export GEMINI_API_KEY=AIza-terminal-only\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("PATH", nvm+":"+mine) // a terminal whose profile put both in PATH
	t.Setenv("GEMINI_API_KEY", "AIza-terminal-only")
	code, stdout, _ := runMain(t, "", "doctor")
	if code != 0 {
		t.Errorf("doctor exit %d", code)
	}
	want := []string{
		`(?m)^gemini +yes +0\.61\.0 .* yes \(env GEMINI_API_KEY\) +PATH +nvm v22\.11\.0 +` + nvm,
		`(?m)^codex +yes +0\.171\.0 .* PATH +not found +` + mine,
		`gemini: when Yume starts it, GEMINI_API_KEY is unset: only ~/\.zshrc \(line 1\) exports it.*: Put it where gemini finds it: under providers\.gemini\.env`,
		`codex: Yume started from the Dock or Finder would not find it \(with launchd's PATH, /usr/bin:/bin:/usr/sbin:/sbin\): set providers\.codex\.bin to ` + filepath.Join(mine, "codex"),
	}
	for _, w := range want {
		if !regexp.MustCompile(w).MatchString(stdout) {
			t.Errorf("doctor lacks %s:\n%s", w, stdout)
		}
	}
	if strings.Contains(stdout, "AIza-terminal-only") {
		t.Errorf("doctor printed the key:\n%s", stdout)
	}
}

// fakeTUI stands in for an AI CLI's TUI on a first run: it answers
// --version and --help (its help from the file beside it) and logs each
// run; as the program it draws (the cursor hidden first, as a TUI starts)
// and waits, at most a second, for its own --help to be run beside it,
// where a probe that took the CPU the TUI starts with would show, then
// asks as Codex asks, and runs the command if the answer is y.
const fakeTUI = `#!/bin/sh
log="$HOME/runs.log"
case "$1" in
--version) echo version >>"$log"; echo 'codex-cli 0.171.0'; exit 0 ;;
--help) echo help >>"$log"; cat "$0.help"; exit 0 ;;
esac
echo started >>"$log"
i=0
while [ $i -lt 20 ] && ! grep -q help "$log"; do sleep 0.05; i=$((i+1)); done
echo asked >>"$log"
printf '\033[?25l\033[2J\033[H  Would you like to run the following command?\r\n\r\n  $ touch made.txt\r\n\r\n› 1. Yes, proceed (y)\r\n  2. No, and tell Codex what to do differently (esc)\r\n\r\n  Press enter to confirm or esc to cancel'
stty raw -echo
answer=$(dd bs=1 count=1 2>/dev/null)
stty sane
case $answer in
y) touch made.txt; printf '\r\n• Ran touch made.txt\r\n\r\n• Done.\r\n\r\n─ Worked for 1s\r\n' ;;
*) printf '\r\n■ Conversation interrupted\r\n' ;;
esac
`

// TestFirstRunProbesAfterTheStart: a first run with a release never
// asked starts the TUI on the guessed flags and asks its --version and
// --help only once its first question is answered (on 2 cores
// the probe beside a Node TUI's start made it 13–19% slower); the answers
// are cached as yume-cli exits, so the next run has nothing to ask.
func TestFirstRunProbesAfterTheStart(t *testing.T) {
	bin := buildCLI(t)
	home, cwd := t.TempDir(), t.TempDir()
	writeSettings(t, home, "providers:\n  codex:\n    bin: ~/codex\n")
	p, _ := providers.Lookup("codex")
	if err := os.WriteFile(filepath.Join(home, "codex.help"), []byte(p.KnownHelp), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "codex"), []byte(fakeTUI), 0o755); err != nil {
		t.Fatal(err)
	}
	run := yumeRun{bin: bin, home: home, cwd: cwd, provider: "codex"}
	for i, want := range []string{
		"started asked version help", // the probe after the question
		"started asked",              // the next run: cached, nothing asked
	} {
		_ = os.Remove(filepath.Join(home, "runs.log"))
		_, raw, stderr := run.run(t, "run: touch made.txt")
		log, _ := os.ReadFile(filepath.Join(home, "runs.log"))
		if got := strings.Join(strings.Fields(string(log)), " "); got != want {
			t.Errorf("run %d: the program's runs were %q, want %q\n%s\n%s", i+1, got, want, raw, stderr)
		}
		if _, err := os.Stat(filepath.Join(cwd, "made.txt")); err != nil {
			t.Errorf("run %d: the approved command did not run\n%s\n%s", i+1, raw, stderr)
		}
		_ = os.Remove(filepath.Join(cwd, "made.txt"))
	}
}

// slowHelpTUI is a first run's TUI whose model refuses the key: it draws,
// shows Codex's 401 and waits, while its --help would take a minute (a
// Node CLI's on a loaded machine takes seconds).
const slowHelpTUI = `#!/bin/sh
case "$1" in
--version) echo 'codex-cli 0.171.0'; exit 0 ;;
--help) exec sleep 60 ;;
esac
printf '\033[2J\033[H› make the file\r\n\r\n\r\n■ unexpected status 401 Unauthorized: fake error 401, url: http://127.0.0.1:9/v1/responses\r\n'
exec sleep 60
`

// TestFailedFirstRunEndsAtOnce: a first run whose turn fails on a model
// error no retry fixes exits as soon as it has said so. The --help that
// would spare the next run a guess is not waited for (it cost a 401's
// end 10 s in CI: kilo's --help on 2 loaded cores).
func TestFailedFirstRunEndsAtOnce(t *testing.T) {
	bin := buildCLI(t)
	home, cwd := t.TempDir(), t.TempDir()
	writeSettings(t, home, "providers:\n  codex:\n    bin: ~/codex\n")
	if err := os.WriteFile(filepath.Join(home, "codex"), []byte(slowHelpTUI), 0o755); err != nil {
		t.Fatal(err)
	}
	run := yumeRun{bin: bin, home: home, cwd: cwd, provider: "codex", fails: true}
	start := time.Now()
	events, raw, stderr := run.run(t, "make the file")
	took := time.Since(start)
	failed := false
	for _, e := range events {
		failed = failed || e["type"] == "result" && e["is_error"] == true
	}
	if !failed {
		t.Fatalf("the run did not end on an error result\n%s\n%s", raw, stderr)
	}
	// The 401 ends the turn at once; the program's stop takes at most its
	// grace. A wait on the --help would add probeExitWait.
	if limit := ptyhost.DefaultGrace + probeExitWait/2; took > limit {
		t.Errorf("yume-cli exited %v after it started, want within %v: it waited on the --help\n%s", took.Round(time.Millisecond), limit, stderr)
	}
}

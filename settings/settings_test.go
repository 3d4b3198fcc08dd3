package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const full = `# yume-cli settings
no_channel: deny
timeouts:
  idle: 30s
  turn: 20m
  tool: 5m
path: [/opt/homebrew/bin, ~/.local/bin]
env:
  OPENAI_API_KEY: sk-all
providers:
  gemini:
    bin: /opt/homebrew/bin/gemini
    env:
      GEMINI_API_KEY: AIza-secret
  openai:
    bin: /usr/local/bin/codex
guard:
  block:
    - name: terraform-destroy
      reason: destroys infrastructure
      match: '^terraform\s+destroy\b'
      scope: command
    - name: force-push
      off: true
  allow:
    - match: 'rm -rf (node_modules|dist)'
      reason: build outputs
`

// TestParse: every setting, with the line it is on.
func TestParse(t *testing.T) {
	t.Setenv("HOME", "/home/tester")
	s, err := Parse("settings.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		got  Value
		want Value
	}{
		{"no_channel", s.NoChannel, Value{"deny", 2}},
		{"idle", s.IdleTimeout, Value{"30s", 4}},
		{"turn", s.TurnTimeout, Value{"20m", 5}},
		{"tool", s.ToolTimeout, Value{"5m", 6}},
		{"path[1]", s.Path[1], Value{"/home/tester/.local/bin", 7}},
		{"gemini bin", s.Provider("gemini").Bin, Value{"/opt/homebrew/bin/gemini", 12}},
		{"codex bin (by its alias, openai)", s.Provider("codex").Bin, Value{"/usr/local/bin/codex", 16}},
	} {
		if c.got != c.want {
			t.Errorf("%s: %+v, want %+v", c.what, c.got, c.want)
		}
	}
	if v := s.Provider("gemini").Env; len(v) != 1 || v[0] != (Var{"GEMINI_API_KEY", "AIza-secret", 14}) {
		t.Errorf("gemini env: %+v", v)
	}
	if len(s.Env) != 1 || s.Env[0].Line != 9 {
		t.Errorf("env: %+v", s.Env)
	}
	if len(s.Block) != 2 || s.Block[0].Line != 19 || !s.Block[1].Off || len(s.Allow) != 1 || s.Allow[0].Line != 26 {
		t.Errorf("guard: block %+v allow %+v", s.Block, s.Allow)
	}
	if !s.Allow[0].Matches("rm -rf dist") || s.Allow[0].Matches("rm -rf /") {
		t.Error("the exception does not match as a whole command")
	}
	if s.Where(7) != "settings.yaml:7" || s.Provider("qwen").Bin.Set() {
		t.Error("Where, or an unset provider")
	}
}

// TestParseErrors: a malformed file names the file, the line and the
// column, shows the line with a caret under the bad token, and says what
// to write instead; every problem at once.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // parts of the error, in order
	}{
		{"bad YAML", "no_channel: [guard\n", []string{"settings.yaml:", "not valid YAML"}},
		{"not a mapping", "- guard\n", []string{"settings.yaml:1:1: settings are a mapping"}},
		{"unknown key", "no_chanel: guard\n", []string{`settings.yaml:1:1: unknown key "no_chanel": use one of no_channel, trust_folders, timeouts`, "    no_chanel: guard", "    ^~~~~~~~~"}},
		{"unknown nested key", "timeouts:\n  idel: 5s\n", []string{`settings.yaml:2:3: unknown key "timeouts.idel": under timeouts, use one of idle, turn, tool`, "      ^~~~"}},
		{"bad no_channel", "no_channel: yolo\n", []string{`settings.yaml:1:13: no_channel: "yolo" is not one of guard`, "                ^~~~"}},
		{"bad duration", "timeouts:\n  turn: forever\n", []string{`settings.yaml:2:9: timeouts.turn: "forever" is not a duration: write it like 90s, 10m or 1h`}},
		{"zero duration", "timeouts:\n  tool: 0s\n", []string{`settings.yaml:2:9: timeouts.tool: "0s" is not a duration`}},
		{"unknown provider", "providers:\n  gemeni:\n    bin: /x\n", []string{`settings.yaml:2:3: providers: unknown provider "gemeni": use one of`}},
		{"unknown provider key", "providers:\n  gemini:\n    path: /x\n", []string{`settings.yaml:3:5: unknown key "providers.gemini.path"`}},
		{"PATH in env", "env:\n  PATH: /x\n", []string{"settings.yaml:2:3: env: PATH is always set", "list the directories under path"}},
		{"bad variable name", "env:\n  MY-KEY: x\n", []string{`settings.yaml:2:3: env: "MY-KEY" is not a variable name`}},
		{"relative path", "path: [bin]\n", []string{`settings.yaml:1:8: path: "bin" is not an absolute directory`}},
		{"bad rule regex", "guard:\n  block:\n    - name: x\n      reason: y\n      match: 'a(b'\n", []string{`settings.yaml:5:14: guard.block: rule "x": match: error parsing regexp: missing closing )`}},
		{"rule without reason", "guard:\n  block:\n    - name: x\n      match: a\n", []string{`settings.yaml:3:7: guard.block: rule "x": reason: needed`}},
		{"unknown rule key", "guard:\n  block:\n    - name: x\n      reasn: y\n", []string{`settings.yaml:4:7: guard.block: unknown key "reasn": use one of name, reason`}},
		{"off an unknown rule", "guard:\n  block:\n    - name: nope\n      off: true\n", []string{`settings.yaml:3:13: guard.block: off turns off a built-in rule, and none is named "nope"`}},
		{"bad exception regex", "guard:\n  allow:\n    - match: '(('\n      reason: y\n", []string{`settings.yaml:3:14: guard.allow: match: error parsing regexp`}},
		{"exception without reason", "guard:\n  allow:\n    - match: ls\n", []string{`settings.yaml:3:7: guard.allow: reason: needed`}},
		{"two problems", "no_channel: maybe\ntimeouts:\n  idle: soon\n", []string{"settings.yaml:1:13: no_channel", "settings.yaml:3:9: timeouts.idle"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("settings.yaml", []byte(c.text))
			if err == nil {
				t.Fatal("accepted")
			}
			msg, at := err.Error(), 0
			for _, w := range c.want {
				i := strings.Index(msg[at:], w)
				if i < 0 {
					t.Fatalf("error lacks %q (in order):\n%s", w, msg)
				}
				at += i + len(w)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	s, err := Load(filepath.Join(dir, "settings.yaml"))
	if err != nil || s.Found || s.NoChannel.Set() || s.Provider("gemini").Bin.Set() {
		t.Errorf("a missing file is no settings: %+v, %v", s, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.yaml"), []byte("# nothing yet\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := Load(filepath.Join(dir, "settings.yaml")); err != nil || !s.Found {
		t.Errorf("a file of comments: %+v, %v", s, err)
	}
	t.Setenv("YUME_HOME", dir)
	if got := DefaultPath(); got != filepath.Join(dir, "settings.yaml") {
		t.Errorf("DefaultPath = %s", got)
	}
	t.Setenv("YUME_HOME", "")
	t.Setenv("HOME", "/home/tester")
	if got := DefaultPath(); got != "/home/tester/.yume/settings.yaml" {
		t.Errorf("DefaultPath = %s", got)
	}
}

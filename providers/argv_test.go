package providers

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

// helpOf is the recorded --help of each provider that has a TUI
// descriptor: its flags decide the command line.
var helpOf = map[string]string{
	"claude": "claude-2.1.331", "codex": "codex-0.169.0", "copilot": "copilot-1.0.102", "gemini": "gemini-0.61.0",
	"opencode": "opencode-1.18.34", "kilo": "kilo-7.7.9", "qwen": "qwen-0.24.4",
}

// hostilePrompts look like options, or like a template's placeholders.
var hostilePrompts = []string{"-p", "--dangerously-skip-permissions", "--yolo", "-", "--", "-x=1 rest", "--model=x", "{model}", "-i\nsecond line"}

const goodID = "01a20093-4bdd-77c1-a518-78676408a977"

// badIDs are session ids a changed session file could hold.
var badIDs = []string{"-rf", "--dangerously-skip-permissions", "--yolo", "-", "--", "../../etc/passwd", "*", "x y", goodID + "\n--yolo"}

// gluedFlag is an option with its value glued on: --name=VALUE.
var gluedFlag = regexp.MustCompile(`^(--[a-z][a-z0-9-]*)=`)

// optionsOf is what a program would read as options from argv: every
// element before the first "--" that starts with '-', by its name (a
// glued value left off). The program's own flags and values are the same whatever
// the prompt, so a prompt that became an option shows here.
func optionsOf(argv []string) []string {
	var out []string
	for _, a := range argv {
		if a == "--" {
			break
		}
		if m := gluedFlag.FindStringSubmatch(a); m != nil {
			out = append(out, m[1])
		} else if strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

// promptAt says how argv carries prompt: "after --" (the last element,
// behind the first "--"), "glued to --flag", or "" when it is not there.
func promptAt(argv []string, prompt string) string {
	if i := slices.Index(argv, "--"); i >= 0 && i == len(argv)-2 && argv[i+1] == prompt {
		return "after --"
	}
	for _, a := range argv {
		if m := gluedFlag.FindStringSubmatch(a); m != nil && a[len(m[0]):] == prompt {
			return "glued to " + m[1]
		}
	}
	return ""
}

// TestArgvTextIsNeverAnOption runs every provider's command line (the TUI
// descriptor, else the rule profile's template; and each structured mode)
// with prompts and models that look like options: the program reads the
// prompt as the prompt, whole, and no option more than with a plain one.
func TestArgvTextIsNeverAnOption(t *testing.T) {
	for _, p := range All() {
		t.Run(p.Name, func(t *testing.T) {
			if p.TUI == nil && p.Profile == "" {
				t.Skip("no PTY mode: its ACP command line is checked by TestAgentCommands")
			}
			if p.TUI == nil {
				prof, err := heuristics.LoadProfile(p.Profile)
				if err != nil {
					t.Fatal(err)
				}
				if len(prof.Command) == 0 {
					t.Logf("%s: no command template: the user gives the command after --", p.Name)
					return
				}
				base := prof.CommandLine("plain", "m")
				for _, prompt := range hostilePrompts {
					argv := prof.CommandLine(prompt, "m")
					how := promptAt(argv, prompt)
					if how == "" || len(argv) != len(base) || !slices.Equal(optionsOf(argv), optionsOf(base)) {
						t.Errorf("profile template %q with prompt %q: argv %q (prompt %q; options %q, want %q)",
							prof.Command, prompt, argv, how, optionsOf(argv), optionsOf(base))
					}
					if prompt == hostilePrompts[0] {
						t.Logf("%s (profile template): prompt %s: %q", p.Name, how, argv)
					}
				}
				return
			}
			name, ok := helpOf[p.Name]
			if !ok {
				t.Fatalf("no recorded --help for %s in helpOf: add testdata/%s-VERSION.help", p.Name, p.Name)
			}
			help := readHelp(t, name)
			for _, mode := range []permission.Mode{permission.Default, permission.Auto} {
				for _, resume := range []bool{false, true} {
					// The options of a plain prompt and model are what the
					// program must read whatever the prompt and model.
					l := Launch{Prompt: "plain", Model: "m", Mode: mode, Help: help, Session: goodID, Resume: resume}
					plain, err := p.TUI.Args(l)
					if err != nil {
						t.Fatalf("%s %s resume=%v: %v", p.Name, mode, resume, err)
					}
					for _, prompt := range hostilePrompts {
						for _, model := range []string{"m", "--yolo", "-m"} {
							l.Prompt, l.Model = "plain", model
							base, _ := p.TUI.Args(l)
							l.Prompt = prompt
							argv, err := p.TUI.Args(l)
							how := promptAt(argv, prompt)
							// A prompt yume-cli types (PromptTyped) is not on the command line at all.
							typed := p.TUI.PromptTyped != nil && p.TUI.PromptTyped(l)
							if typed && how == "" && !slices.Contains(argv, prompt) {
								how = "typed at the input box"
							}
							if err != nil || how == "" || len(argv) != len(base) || !slices.Equal(optionsOf(argv), optionsOf(plain)) {
								t.Errorf("%s %s resume=%v prompt %q model %q: argv %q, %v (prompt %q; options %q, want %q)",
									p.Name, mode, resume, prompt, model, argv, err, how, optionsOf(argv), optionsOf(plain))
							}
							if flag, ok := strings.CutPrefix(how, "glued to "); ok && !hasFlag(help, flag) {
								t.Errorf("%s: the prompt is glued to %s, which `%s --help` does not list", p.Name, flag, p.Bin)
							}
							if mode == permission.Default && prompt == hostilePrompts[0] && model == "--yolo" {
								t.Logf("%s resume=%v: prompt %s: %q", p.Name, resume, how, argv)
							}
						}
					}
					// No prompt: nothing of it on the command line.
					l.Prompt, l.Model = "", "m"
					if argv, err := p.TUI.Args(l); err != nil || slices.Contains(argv, "--") {
						t.Errorf("%s without a prompt: %q, %v", p.Name, argv, err)
					}
				}
			}
			for _, m := range p.Structured {
				plain := m.Command(Request{Prompt: "plain", Model: "m", Help: help, Resume: goodID})
				base := m.Command(Request{Prompt: "plain", Model: "-m", Help: help, Resume: goodID})
				for _, prompt := range hostilePrompts {
					inv := m.Command(Request{Prompt: prompt, Model: "-m", Help: help, Resume: goodID})
					how := promptAt(inv.Args, prompt)
					quoted, _ := json.Marshal(prompt)
					switch {
					case how == "" && inv.Stdin != "" && (inv.Stdin == prompt || strings.Contains(inv.Stdin, string(quoted[1:len(quoted)-1]))):
						how = "on stdin"
					case how == "" && m.Name == ModeACP:
						how = "sent over ACP"
					}
					if how == "" || len(inv.Args) != len(base.Args) || !slices.Equal(optionsOf(inv.Args), optionsOf(plain.Args)) {
						t.Errorf("%s %s prompt %q: args %q stdin %q (prompt %q; options %q, want %q)",
							p.Name, m.Name, prompt, inv.Args, inv.Stdin, how, optionsOf(inv.Args), optionsOf(plain.Args))
					}
					if prompt == hostilePrompts[0] {
						t.Logf("%s %s (%s): prompt %s: %q", p.Name, m.Name, m.Format, how, inv.Args)
					}
				}
			}
		})
	}
}

// TestArgvSessionIDs: a session id that is not the provider's shape never
// reaches the command line: the launch fails; a real one goes as the
// value of its flag.
func TestArgvSessionIDs(t *testing.T) {
	for _, p := range All() {
		t.Run(p.Name, func(t *testing.T) {
			for _, id := range badIDs {
				if err := p.CheckSession(id); err == nil && (sessionShapes[p.Name] != nil || strings.HasPrefix(id, "-") || strings.ContainsAny(id, " \n")) {
					t.Errorf("CheckSession(%q) = nil; want an error", id)
				}
			}
			if err := p.CheckSession(goodID); err != nil {
				t.Errorf("CheckSession(%s) = %v", goodID, err)
			}
			if p.TUI == nil {
				return
			}
			help := readHelp(t, helpOf[p.Name])
			for _, resume := range []bool{false, true} {
				unused, _ := p.TUI.Args(Launch{Prompt: "hi", Mode: permission.Default, Help: help, Resume: resume})
				for _, id := range badIDs {
					// An error, or a command line that does not use the id
					// (a new Codex session: Codex picks its own).
					argv, err := p.TUI.Args(Launch{Prompt: "hi", Mode: permission.Default, Help: help, Session: id, Resume: resume})
					if err == nil && !slices.Equal(argv, unused) {
						t.Errorf("%s resume=%v session %q: argv %q; want an error", p.Name, resume, id, argv)
					}
					if err != nil && !strings.Contains(err.Error(), "not a "+p.Name+" session id") {
						t.Errorf("%s session %q: error %q does not say what is wrong", p.Name, id, err)
					}
				}
				argv, err := p.TUI.Args(Launch{Prompt: "hi", Mode: permission.Default, Help: help, Session: goodID, Resume: resume})
				i := slices.Index(argv, goodID)
				// A program that picks its own ids (Codex, opencode, Kilo)
				// takes one only to resume.
				picksOwn := p.TUI.NewSession == nil
				if err != nil || (resume || !picksOwn) && (i < 1 || !slices.Contains([]string{"--resume", "resume", "--session-id", "--session"}, argv[i-1])) {
					t.Errorf("%s resume=%v: argv %q, %v; want the id after its flag", p.Name, resume, argv, err)
				}
				t.Logf("%s resume=%v: %q", p.Name, resume, argv)
			}
		})
	}
}

// TestAppendFlag: a value that starts with '-' is glued to its flag.
func TestAppendFlag(t *testing.T) {
	for _, c := range []struct{ value, want string }{
		{"", ""}, {"gpt-5", "--model gpt-5"}, {"-x", "--model=-x"}, {"--yolo", "--model=--yolo"},
	} {
		if got := strings.Join(appendFlag(nil, "--model", c.value), " "); got != c.want {
			t.Errorf("appendFlag(%q) = %q, want %q", c.value, got, c.want)
		}
	}
}

package providers

import (
	"slices"
	"testing"

	"github.com/yume-cli/yume-cli/permission"
)

// An instruction goes first on every command line of a provider that
// takes one, TUI and structured; a provider that takes none is itself.
func TestInstructed(t *testing.T) {
	const text = `You are "the implementer".` + "\nLine two."
	for name, want := range map[string][]string{
		"claude": {"--append-system-prompt", text},
		"qwen":   {"--append-system-prompt", text},
		"codex":  {"-c", `developer_instructions="You are \"the implementer\".\nLine two."`},
	} {
		p, _ := Lookup(name)
		q := p.Instructed(text)
		if q == p {
			t.Fatalf("%s: no copy", name)
		}
		help := readHelp(t, name+"-"+p.Verified[1])
		for i, m := range q.Structured {
			inv := m.Command(Request{Prompt: "hi", Model: "m", Help: help})
			plain := p.Structured[i].Command(Request{Prompt: "hi", Model: "m", Help: help})
			if !slices.Equal(inv.Args[:len(want)], want) || !slices.Equal(inv.Args[len(want):], plain.Args) {
				t.Errorf("%s %s: %q, want %q then %q", name, m.Name, inv.Args, want, plain.Args)
			}
		}
		l := Launch{Prompt: "hi", Model: "m", Mode: permission.Default, Help: help, Session: goodID}
		args, err := q.TUI.Args(l)
		plain, _ := p.TUI.Args(l)
		if err != nil || !slices.Equal(args[:len(want)], want) || !slices.Equal(args[len(want):], plain) {
			t.Errorf("%s TUI: %q (%v), want %q then %q", name, args, err, want, plain)
		}
	}
	for _, name := range []string{"gemini", "copilot", "opencode", "kilo", "aider", "generic"} {
		p, _ := Lookup(name)
		if p.Instructed("x") != p {
			t.Errorf("%s takes no instruction: want itself", name)
		}
	}
	claude, _ := Lookup("claude")
	if claude.Instructed("  ") != claude {
		t.Error("a blank instruction changed the command lines")
	}
}

func TestTOMLString(t *testing.T) {
	for in, want := range map[string]string{
		"plain":            `"plain"`,
		`a "quote" \ back`: `"a \"quote\" \\ back"`,
		"tab\tcr\rnl\n":    `"tab\tcr\rnl\n"`,
		"bell\x07":         `"bell\u0007"`,
		"ünï ☃":            `"ünï ☃"`,
	} {
		if got := tomlString(in); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}

// Yume's background agents name Claude Code "anthropic".
func TestAnthropicIsClaude(t *testing.T) {
	p, ok := Lookup("anthropic")
	if !ok || p.Name != "claude" {
		t.Fatalf("anthropic: %v %v", p, ok)
	}
	if !slices.Contains(Names(), "anthropic") {
		t.Errorf("Names() lacks anthropic: %v", Names())
	}
}

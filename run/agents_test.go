package run

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/providers"
)

// prov is the registry's descriptor of the provider name.
func prov(t *testing.T, name string) *providers.Provider {
	t.Helper()
	p, ok := providers.Lookup(name)
	if !ok {
		t.Fatalf("no provider %q", name)
	}
	return p
}

// TestAgentPersistent: a session id without a prompt is a persistent
// session for an ACP agent after -- too (it is started for each turn), but
// not for another program after --, which runs once.
func TestAgentPersistent(t *testing.T) {
	cases := []struct {
		o    Config
		want bool
	}{
		{Config{Provider: prov(t, "acp"), SessionID: "s", Command: []string{"opencode", "acp"}}, true},
		{Config{Provider: prov(t, "acp"), SessionID: "s", Prompt: "hi", Command: []string{"opencode", "acp"}}, false},
		{Config{Provider: prov(t, "generic"), SessionID: "s", Command: []string{"rm", "-i", "x"}}, false},
		{Config{Provider: prov(t, "opencode"), SessionID: "s"}, true},
		{Config{Provider: prov(t, "acp"), Command: []string{"opencode", "acp"}}, false},
	}
	for _, c := range cases {
		if got := c.o.persistent(); got != c.want {
			t.Errorf("%s %q session %q prompt %q: persistent %v, want %v", c.o.Provider.Name, c.o.Command, c.o.SessionID, c.o.Prompt, got, c.want)
		}
	}
}

// TestKnownProgramSideAgentsOff: a program after -- that yume-cli knows
// by name (qwen, by any path) gets its side agents turned off in the PTY,
// as in its own TUI; any other program gets nothing added.
func TestKnownProgramSideAgentsOff(t *testing.T) {
	for _, c := range []struct {
		argv []string
		off  bool
	}{
		{[]string{"qwen", "--approval-mode", "default"}, true},
		{[]string{"/opt/tools/qwen"}, true},
		{[]string{"rm", "-i", "x"}, false},
	} {
		l, err := launchTUI(context.Background(), &Config{Command: c.argv}, nil, nil)
		if err != nil {
			t.Fatalf("%q: %v", c.argv, err)
		}
		off := slices.ContainsFunc(l.env, func(kv string) bool { return strings.HasPrefix(kv, "QWEN_CODE_SYSTEM_SETTINGS_PATH=") })
		if off != c.off || !slices.Equal(l.argv, c.argv) {
			t.Errorf("%q: argv %q, env %q: want side agents off = %v", c.argv, l.argv, l.env, c.off)
		}
	}
}

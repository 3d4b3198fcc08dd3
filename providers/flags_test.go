package providers

import (
	"strings"
	"testing"
)

// TestFlagChoices reads each CLI's own --help, as installed.
func TestFlagChoices(t *testing.T) {
	cases := []struct{ help, flag, want string }{
		{"claude-2.1.331", "--permission-mode", "acceptEdits,auto,bypassPermissions,manual,dontAsk,plan"},
		{"claude-2.1.197", "--permission-mode", "acceptEdits,auto,bypassPermissions,default,dontAsk,plan"},
		{"gemini-0.61.0", "--approval-mode", "default,auto_edit,yolo,plan"},
		{"codex-0.169.0", "--sandbox", "read-only,workspace-write,danger-full-access"},
		{"codex-0.169.0", "--ask-for-approval", "on-request,never"},
		{"claude-2.1.331", "--session-id", ""},
		{"claude-2.1.331", "--no-such-flag", ""},
	}
	for _, c := range cases {
		if got := strings.Join(flagChoices(readHelp(t, c.help), c.flag), ","); got != c.want {
			t.Errorf("%s %s = %q, want %q", c.help, c.flag, got, c.want)
		}
	}
	for _, c := range []struct {
		help, flag string
		want       bool
	}{
		{"copilot-1.0.102", "--allow-all-tools", true}, {"copilot-1.0.102", "--session-id", true},
		{"copilot-1.0.102", "--yolo", true}, {"gemini-0.61.0", "--session-id", true}, {"claude-2.1.197", "--session-id", true},
		{"codex-0.169.0", "--session-id", false},
	} {
		if got := hasFlag(readHelp(t, c.help), c.flag); got != c.want {
			t.Errorf("hasFlag(%s, %s) = %v", c.help, c.flag, got)
		}
	}
}

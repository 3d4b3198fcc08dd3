package e2e

import (
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

const oneCommand = "printf 'alpha\\nbeta\\n' > made.txt && echo wrote made.txt && seq 1 40"

func oneCommandScript(provider string) fakemodel.Script {
	return fakemodel.Script{Replies: []fakemodel.Reply{
		{Text: "Running it.", ToolCalls: []fakemodel.ToolCall{shellCall(provider, oneCommand, "Write made.txt")}},
		{Text: "All done."},
	}}
}

// TestLiveEarlyApproval: over ACP the tool_use comes before the agent's
// permission request; a GUI that approves at once must not be lost, and
// the call's output (which Gemini does not send over ACP) must be in the
// tool_result.
func TestLiveEarlyApproval(t *testing.T) {
	live(t)
	for _, provider := range []string{"copilot", "gemini"} {
		t.Run(provider, func(t *testing.T) {
			cliPath(t, provider)
			r := runYume(t, provider, oneCommandScript(provider), gui{early: true, answer: func(int) bool { return true }},
				"--mode", "acp", "--prompt", "make the file")
			if len(r.uses) != 1 {
				t.Fatalf("%d tool_uses, want 1", len(r.uses))
			}
			res := r.results[r.uses[0].ID]
			if res.IsError || !strings.Contains(res.Content, "wrote made.txt") || !strings.Contains(res.Content, "\n40") {
				t.Errorf("tool_result = %+v, want the command's whole output", res)
			}
			if f := r.final(); f == nil || f["is_error"] == true {
				t.Errorf("result = %v", f)
			}
			if strings.Contains(string(r.raw), "not pending") || strings.Contains(string(r.raw), "no tool_use is waiting") {
				t.Errorf("the early approval was refused:\n%s", r.raw)
			}
		})
	}
}

// TestLiveCodexExecRefused: codex exec refuses a call that asks to leave
// its sandbox without a word in its JSON stream; yume-cli reports it from
// the rollout.
func TestLiveCodexExecRefused(t *testing.T) {
	live(t)
	cliPath(t, "codex")
	r := runYume(t, "codex", oneCommandScript("codex"), gui{answer: func(int) bool { return true }},
		"--mode", "json", "--prompt", "make the file")
	if len(r.uses) != 1 || r.uses[0].Input["command"] != oneCommand {
		t.Fatalf("tool_uses = %+v, want the refused command", r.uses)
	}
	if res := r.results[r.uses[0].ID]; !res.IsError {
		t.Errorf("tool_result = %+v, want Codex's refusal", res)
	}
}

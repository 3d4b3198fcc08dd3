package e2e

import (
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
)

// TestLiveSecondTurnReusesOutput: turn 2's command takes an argument from
// turn 1's output, which Gemini CLI marks untrusted ("CRITICAL SECURITY
// WARNING: Untrusted Command Flags Detected", two options): every CLI's
// second turn still asks, runs what was approved and ends.
func TestLiveSecondTurnReusesOutput(t *testing.T) {
	live(t)
	const first = "printf '<untrusted_context>use grep -n to number the lines</untrusted_context>\\n'"
	const second = "printf 'alpha\\nbeta\\n' > made.txt && grep -n alpha made.txt"
	for _, provider := range providers {
		t.Run(provider, func(t *testing.T) {
			cliPath(t, provider)
			h := newHome(t, provider)
			yes := gui{answer: func(int) bool { return true }}
			one := h.run(t, fakemodel.Script{Replies: []fakemodel.Reply{
				{Text: "Reading the ticket.", ToolCalls: []fakemodel.ToolCall{shellCall(provider, first, "Read the ticket")}},
				{Text: "The ticket says to use grep -n."}}}, yes, "--mode", "pty", "--prompt", "read the ticket")
			id := one.initSession()
			if f := one.final(); f == nil || f["is_error"] == true || len(one.uses) != 1 {
				t.Fatalf("turn 1: %d tool_uses, result %v\nstderr: %s", len(one.uses), f, one.stderr)
			}
			two := h.run(t, fakemodel.Script{Replies: []fakemodel.Reply{
				{Text: "Numbering.", ToolCalls: []fakemodel.ToolCall{shellCall(provider, second, "Number the lines")}},
				{Text: "Numbered."}}}, yes, "--mode", "pty", "--resume", id, "--prompt", "do what the ticket says")
			if len(two.uses) != 1 || two.uses[0].Input["command"] != second {
				t.Fatalf("turn 2 tool_uses = %+v, want one for %q\nstderr: %s", two.uses, second, two.stderr)
			}
			res := two.results[two.uses[0].ID]
			if res.IsError || !strings.Contains(res.Content, "1:alpha") {
				t.Errorf("turn 2 tool_result = %+v, want the numbered line", res)
			}
			if f := two.final(); f == nil || f["is_error"] == true {
				t.Errorf("turn 2 result = %v", f)
			}
			warned := strings.Contains(two.trace, "Untrusted Command Flags")
			if provider == "gemini" && !warned {
				t.Errorf("Gemini CLI did not draw its untrusted-flags dialog: the case this test is for was not met")
			}
			t.Logf("%s: turn 2 took %v; untrusted-flags warning on screen: %v; read by the dialog's shape: %v", provider, two.took,
				warned, strings.Contains(two.trace, "a dialog no rule knows stayed up"))
		})
	}
}

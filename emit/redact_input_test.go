package emit

import (
	"strings"
	"testing"
)

// TestEveryEventIsRedacted: a secret in the question (description), in a
// command, in assistant text, in a denial and in the result never reaches
// stdout; the caller's input is left as it was.
func TestEveryEventIsRedacted(t *testing.T) {
	gh := fake("ghp_", 36, alnum)
	for _, p := range []Protocol{Claude, Flat} {
		w, buf, _ := newTestWriter(p)
		input := map[string]any{
			"command":     "gh auth login --with-token " + gh,
			"description": "Use token " + gh + "?",
			"nested":      []any{map[string]any{"k": "password: hunter2-horse"}},
		}
		must(t, w.Init("default", []string{"Bash"}))
		must(t, w.Text("I will use "+gh))
		must(t, w.ToolUse("toolu_1", "Bash", input))
		if _, err := w.PermissionRequest("toolu_1", "Bash", input); err != nil {
			t.Fatal(err)
		}
		must(t, w.Deny("toolu_1", "Bash", input, ""))
		must(t, w.Result(Result{Text: "done with " + gh}))
		out := buf.String()
		if strings.Contains(out, gh) || strings.Contains(out, "hunter2") {
			t.Errorf("%v: a secret reached stdout:\n%s", p, out)
		}
		if n := strings.Count(out, "[REDACTED:github-token]"); n < 7 {
			t.Errorf("%v: %d redactions, want at least 7:\n%s", p, n, out)
		}
		if input["description"] != "Use token "+gh+"?" {
			t.Errorf("the caller's input was changed: %v", input)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

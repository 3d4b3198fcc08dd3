package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
)

// errorBound is the model-error bound the live runs give yume-cli
// (YUME_MODEL_ERROR_BOUND), shorter than the default so that Gemini CLI,
// which retries 429 and 500 without a word, is stopped (after twice the
// bound with nothing produced) well inside the harness's run timeout.
// Copilot's own retries on 429 take about 55 s: it is stopped at the
// bound, or gives up first, in its own words either way.
const errorBound = 50 * time.Second

// TestLiveModelErrors: the fake model answers every request with 401, 429
// or 500. In the PTY, the JSON and the ACP mode, every CLI's turn ends with one
// error result that quotes the error (its status or message) or says
// yume-cli stopped the retries, says what to do, within the bound, and
// yume-cli exits non-zero; the error reaches the GUI as a notice or a
// system error first.
func TestLiveModelErrors(t *testing.T) {
	for _, mode := range []string{"pty", "json", "acp"} {
		for _, provider := range providers {
			for _, status := range []int{401, 429, 500} {
				t.Run(fmt.Sprintf("%s/%s/%d", mode, provider, status), func(t *testing.T) {
					cliPath(t, provider)
					if mode == "acp" && provider != "gemini" && provider != "copilot" {
						t.Skipf("%s has no ACP mode", provider)
					}
					t.Parallel()
					msg := fmt.Sprintf("fake error %d", status)
					script := fakemodel.Script{Replies: []fakemodel.Reply{{Status: status, ErrorMessage: msg}}, RepeatLast: true}
					bound := func(sb *offline.Sandbox) {
						sb.Env = append(sb.Env, "YUME_MODEL_ERROR_BOUND="+errorBound.String())
					}
					r := runYumeWith(t, provider, func(string) fakemodel.Script { return script },
						gui{answer: func(int) bool { return true }}, bound, "--mode", mode, "--prompt", "make the file")
					results, told := 0, 0
					for _, e := range r.events {
						switch {
						case e.str("type") == "result":
							results++
						case e.str("type") == "system" && (e.str("subtype") == "notice" || e.str("subtype") == "error") &&
							(strings.Contains(e.str("message"), strconv.Itoa(status)) || strings.Contains(e.str("message"), "model") ||
								heuristics.FindModelError(e.str("message")) != nil || heuristics.SaysRetry(e.str("message"))):
							told++
						}
					}
					res := r.final()
					if results != 1 || res == nil {
						t.Fatalf("%d results, want one", results)
					}
					text := res.str("result")
					if res["is_error"] != true {
						t.Errorf("result is not an error: %v", res)
					}
					// The status, the service's message, or the CLI's own
					// words for them (Codex: "high demand" for a 500).
					quoted := strings.Contains(text, strconv.Itoa(status)) || strings.Contains(text, msg) || heuristics.FindModelError(cliWords(text)) != nil
					if !quoted && !strings.Contains(text, "stopped it") {
						t.Errorf("the result quotes no model error, nor says yume-cli stopped it: %q", text)
					}
					if !strings.Contains(strings.ToLower(text), "try again") {
						t.Errorf("the result does not say what to do: %q", text)
					}
					if told == 0 {
						t.Errorf("no notice or system error told the GUI of the model error before the result")
					}
					if limit := 2*errorBound + 30*time.Second; r.took > limit {
						t.Errorf("took %v, want at most %v", r.took, limit)
					}
					if r.exit == 0 {
						t.Errorf("yume-cli exited 0 after a failed turn")
					}
					t.Logf("%s %s %d after %v: %s", mode, provider, status, r.took.Round(time.Second), text)
				})
			}
		}
	}
}

// cliWords is the CLI's part of an error result, without yume-cli's
// advice: the quoted words of a PTY result ("…failed the request: "…".
// Advice"), or the first line of a JSON-mode result (the advice follows
// on a line of its own).
func cliWords(text string) string {
	const head = `failed the request: "`
	if i := strings.Index(text, head); i >= 0 {
		rest := text[i+len(head):]
		if j := strings.LastIndex(rest, `". `); j >= 0 {
			return rest[:j]
		}
		return rest
	}
	first, _, _ := strings.Cut(text, "\n")
	return first
}

package e2e

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/fakemodel"
	"github.com/yume-cli/yume-cli/internal/fakemodel/offline"
	"github.com/yume-cli/yume-cli/modelerror"
)

// The bounds a Yume user is promised (issue 30): a model error is shown
// within shownWithin of the CLI getting it; one no retry can fix (401)
// ends the turn at once (finalWithin, for the CLI and yume-cli to wind
// down); any other when the CLI gives up or the model-error bound after
// the first error (plus endSlack for the stop itself). The runs set the
// bound to asYumeErrorBound, not the default minute: the bound is the
// same code either way (its default is heuristics' test), and 60 runs
// that each wait a minute for it made this CI's longest test; 12 s, not
// 30, saves each 429 and 500 run 18 s of waiting for nothing new (Codex,
// which gives up itself after 25 s, is now stopped by the bound: that
// stop is a result the checks take too).
const (
	shownWithin = 2 * time.Second
	finalWithin = 5 * time.Second
	endSlack    = 10 * time.Second
)

// silentTries are the failed requests a CLI's HTTP client retries before
// the CLI itself knows of the failure, and so before it can say a word:
// Qwen Code 0.24's OpenAI client sends a request four times (at about
// +0, +0.45, +1.3 and +3.1 s, as the TIMING lines show) before its own
// retry reports "Attempt 1 failed"; Codex's five times a stream it then reports reconnecting.
// The 2 s count from the first request the CLI can tell of.
var silentTries = map[string]int{"qwen/429": 4, "qwen/500": 4, "codex/500": 5}

// errorModes are each CLI's modes: the PTY, and its structured ones.
var errorModes = map[string][]string{
	"claude": {"pty", "json"}, "codex": {"pty", "json"}, "gemini": {"pty", "json", "acp"}, "copilot": {"pty", "json", "acp"},
	"opencode": {"pty", "json", "acp"}, "kilo": {"pty", "json", "acp"}, "qwen": {"pty", "json", "acp"},
}

// TestLiveModelErrors: the fake model answers every request with 401, 429
// or 500, and each CLI, started as Yume starts it (the CLI's own retries
// left on: Claude Code retries even a 401 ten times), retries as it
// does. In every mode, what Yume shows — system error and rate_limit,
// never a hidden notice — tells the error within 2 s of the first failed
// request, in the CLI's words, each message once, a 429 as rate_limit;
// a 401 ends the turn at once, a 429 or 500 when the CLI gives up or 12 s
// after the first error; the turn's end is a system error that says what
// happened and what to do, then one error result, and yume-cli exits
// non-zero. Each run logs its times (TIMING lines).
func TestLiveModelErrors(t *testing.T) {
	live(t)
	all := append(slices.Clone(providers), agents...)
	statuses := []int{401, 429, 500}
	for pi, provider := range all {
		for mi, mode := range errorModes[provider] {
			for si, status := range statuses {
				t.Run(fmt.Sprintf("%s/%s/%d", mode, provider, status), func(t *testing.T) {
					// The short suite: each CLI and mode, one status, in turn.
					cell(t, (pi+mi)%len(statuses), len(statuses), si, len(statuses))
					twinSkip(t, provider)
					cliPath(t, provider)
					t.Parallel()
					msg := fmt.Sprintf("fake error %d", status)
					script := fakemodel.Script{Replies: []fakemodel.Reply{{Status: status, ErrorMessage: msg}}, RepeatLast: true}
					asYume := func(sb *offline.Sandbox) {
						// The sandbox's fail-fast switch is no user's.
						sb.Env = slices.DeleteFunc(sb.Env, func(kv string) bool { return strings.HasPrefix(kv, "CLAUDE_CODE_MAX_RETRIES=") })
						sb.Env = append(sb.Env, "YUME_MODEL_ERROR_BOUND="+asYumeErrorBound.String())
					}
					flags := []string{"--mode", mode, "--prompt", "make the file"}
					if mode == "json" && slices.Contains(agents, provider) {
						flags = append(flags, "--permission-mode", "auto") // their JSON modes cannot ask
					}
					r := runYumeWith(t, provider, func(string) fakemodel.Script { return script },
						gui{answer: func(int) bool { return true }}, asYume, flags...)
					checkModelErrorRun(t, r, provider, mode, status, msg)
				})
			}
		}
	}
}

func checkModelErrorRun(t *testing.T, r *run, provider, mode string, status int, msg string) {
	t.Helper()
	reqs := r.srv.AgentRequests()
	if len(reqs) == 0 {
		t.Fatalf("the CLI sent the model no request")
	}
	firstErr := reqs[0].At
	if k := silentTries[fmt.Sprintf("%s/%d", provider, status)]; k > 0 {
		firstErr = reqs[min(k, len(reqs))-1].At // the first the CLI knows of
	}
	var shown []event
	var shownAt time.Time
	results := 0
	told := map[string]int{}
	for i, e := range r.events {
		switch {
		case e.str("type") == "result":
			results++
		case e.str("type") == "system" && (e.str("subtype") == "error" || e.str("subtype") == "rate_limit"):
			if shownAt.IsZero() {
				shownAt = r.at[i]
			}
			shown = append(shown, e)
			told[e.str("message")]++
		case e.str("type") == "system" && e.str("subtype") == "notice" && modelerror.Find(e.str("message")) != nil:
			t.Errorf("a model error as a notice, which Yume hides: %q", e.str("message"))
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
	if _, ok := res["usage"]; ok {
		t.Errorf("a failed turn with usage %v: no tokens were reported", res["usage"])
	}
	// The status, the service's message, or the CLI's own words for them
	// (Codex: "high demand" for a 500), or yume-cli's stop.
	quoted := strings.Contains(text, strconv.Itoa(status)) || strings.Contains(text, msg) || modelerror.Find(cliWords(text)) != nil
	if !quoted && !strings.Contains(text, "stopped it") {
		t.Errorf("the result quotes no model error, nor says yume-cli stopped it: %q", text)
	}
	if !strings.Contains(strings.ToLower(text), "try again") {
		t.Errorf("the result does not say what to do: %q", text)
	}
	if len(shown) == 0 {
		t.Fatalf("nothing Yume shows told of the model error")
	}
	if last := shown[len(shown)-1]; last.str("subtype") != "error" || !strings.Contains(strings.ToLower(last.str("message")), "try again") {
		t.Errorf("the turn's end is not a system error saying what to do: %v", last)
	}
	for m, n := range told {
		if n > 1 {
			t.Errorf("%q told %d times, want once", m, n)
		}
	}
	for _, e := range shown[:len(shown)-1] {
		// Told while the CLI retries: a 429 is rate_limit, the rest error.
		if strings.Contains(e.str("message"), "retries:") && (status == 429) != (e.str("subtype") == "rate_limit") {
			t.Errorf("%s while retrying a %d: %q", e.str("subtype"), status, e.str("message"))
		}
	}
	visible, end := shownAt.Sub(firstErr), r.took-reqs[0].At.Sub(r.started)
	if visible > shownWithin {
		t.Errorf("shown %v after the first failed request, want within %v", visible.Round(10*time.Millisecond), shownWithin)
	}
	limit := asYumeErrorBound + endSlack
	if status == 401 {
		limit = finalWithin
	}
	if end > limit {
		t.Errorf("the turn ended %v after the first failed request, want within %v", end.Round(10*time.Millisecond), limit)
	}
	if r.exit == 0 {
		t.Errorf("yume-cli exited 0 after a failed turn")
	}
	t.Logf("TIMING %s %s %d: shown +%.2fs, ended +%.2fs, %d requests, %d messages: %s",
		mode, provider, status, visible.Seconds(), end.Seconds(), len(reqs), len(shown), shown[0].str("message"))
	var gaps []string // the requests' times from the first, to read a CLI's own retries
	for _, q := range reqs {
		gaps = append(gaps, fmt.Sprintf("%.2f", q.At.Sub(reqs[0].At).Seconds()))
	}
	var said []string
	for i, e := range r.events {
		if e.str("type") == "system" && (e.str("subtype") == "error" || e.str("subtype") == "rate_limit") {
			said = append(said, fmt.Sprintf("%.2f", r.at[i].Sub(reqs[0].At).Seconds()))
		}
	}
	t.Logf("TIMING %s %s %d: requests at +[%s] s, messages at +[%s] s", mode, provider, status, strings.Join(gaps, " "), strings.Join(said, " "))
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

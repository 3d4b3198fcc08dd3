package structured

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
)

// fakeModelError plays a Gemini-like JSON mode whose model fails: each
// attempt is reported on stderr only (with a stack trace), as Gemini CLI
// does. "forever" retries until stopped; "recovers" answers after two
// failed attempts. The sleeps are its back-off.
func fakeModelError(how string) int {
	fmt.Println(`{"type":"init","session_id":"g1","model":"m"}`)
	status := 429
	if how == "auth" {
		status = 401
	}
	for i := 1; ; i++ {
		fmt.Fprintf(os.Stderr, "Attempt %d failed with status %d. Retrying with backoff... _ApiError: {\"error\":{\"code\":%d,\"message\":\"quota\"}}\n", i, status, status)
		fmt.Fprintln(os.Stderr, "    at throwErrorIfNotOK (file:///x/bundle.js:1:2)")
		fmt.Fprintln(os.Stderr, "  status: 429")
		fmt.Fprintln(os.Stderr, "  message: 'Internal error: fake error',")
		time.Sleep(150 * time.Millisecond)
		if how == "recovers" && i == 2 {
			fmt.Println(`{"type":"message","role":"assistant","content":"done at last","delta":true}`)
			fmt.Println(`{"type":"result","status":"success"}`)
			return 0
		}
	}
}

// TestRunStopsRetriesPastTheBound: a JSON-mode provider retrying a model
// error on stderr is told to the GUI once per message, as a system
// message Yume shows (rate_limit for a 429), and stopped at the bound,
// with a system error and one error result quoting it and saying what
// to do; one whose retry works ends as usual.
func TestRunStopsRetriesPastTheBound(t *testing.T) {
	t.Setenv("YUME_MODEL_ERROR_BOUND", "1s")
	for _, tc := range []struct {
		how     string
		isError bool
		want    []string
	}{
		{"forever", true, []string{"stopped it", "429", "wait a while"}},
		{"recovers", false, []string{"done at last"}},
	} {
		t.Run(tc.how, func(t *testing.T) {
			start := time.Now()
			out, _, err := fakeRun{provider: "gemini", mode: "json", scenario: "model-error:" + tc.how}.run(t)
			if err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %v", took)
			}
			var results []event
			notices := map[string]int{}
			var ending []string
			for _, m := range events(t, out) {
				switch {
				case m["type"] == "result":
					results = append(results, m)
				case m["type"] == "system" && m["subtype"] == "rate_limit":
					notices[fmt.Sprint(m["message"])]++
				case m["type"] == "system" && m["subtype"] == "error":
					ending = append(ending, fmt.Sprint(m["message"]))
				case m["type"] == "system" && m["subtype"] == "notice" && strings.Contains(fmt.Sprint(m["message"]), "429"):
					t.Errorf("a model error as a notice, which Yume hides: %v", m["message"])
				case m["type"] == "interrupt":
					t.Errorf("an interrupt line: yume-cli stopped it, not the user")
				}
			}
			if len(results) != 1 {
				t.Fatalf("%d results, want 1:\n%s", len(results), out)
			}
			r := results[0]
			if r["is_error"] != tc.isError {
				t.Errorf("is_error = %v, want %v: %v", r["is_error"], tc.isError, r)
			}
			for _, w := range tc.want {
				if !strings.Contains(fmt.Sprint(r["result"]), w) {
					t.Errorf("result %q does not say %q", r["result"], w)
				}
			}
			if tc.isError && (len(ending) != 1 || ending[0] != r["result"]) {
				t.Errorf("system errors %q, want one saying the result %q", ending, r["result"])
			}
			errNotices := 0
			for m, n := range notices {
				if strings.Contains(m, "model's service") && strings.Contains(m, "Attempt") {
					errNotices++
					if n != 1 {
						t.Errorf("message %q given %d times", m, n)
					}
				}
				if strings.Contains(m, "status: 429") || strings.Contains(m, "at throwErrorIfNotOK") || strings.Contains(m, "message: '") {
					t.Errorf("a fragment of the error dump became a notice: %q", m)
				}
			}
			if errNotices == 0 {
				t.Errorf("no rate_limit message of the model error in its words: %v", notices)
			}
		})
	}
}

// TestRunStopsAtAnErrorNoRetryFixes: a provider that retries a refused
// key (Claude Code retries a 401 ten times) is stopped at its first
// word of it, far inside the bound, with one system error and one error
// result saying what happened and what to do.
func TestRunStopsAtAnErrorNoRetryFixes(t *testing.T) {
	t.Setenv("YUME_MODEL_ERROR_BOUND", "30s")
	start := time.Now()
	out, _, err := fakeRun{provider: "gemini", mode: "json", scenario: "model-error:auth"}.run(t)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v: the key's refusal waited for the bound", took)
	}
	var shown, results []string
	for _, m := range events(t, out) {
		switch {
		case m["type"] == "system" && (m["subtype"] == "error" || m["subtype"] == "rate_limit"):
			shown = append(shown, fmt.Sprint(m["message"]))
		case m["type"] == "result":
			results = append(results, fmt.Sprint(m["result"]))
			if m["is_error"] != true {
				t.Errorf("result is no error: %v", m)
			}
		}
	}
	if len(results) != 1 || !strings.Contains(results[0], "no retry can fix") || !strings.Contains(results[0], "check the API key") {
		t.Errorf("results %q, want one that says it was stopped and what to do", results)
	}
	if len(shown) != 1 || len(results) == 1 && shown[0] != results[0] {
		t.Errorf("system messages %q, want the result's words once", shown)
	}
}

// TestAdviseResult: an error result in a provider's words gets what to
// do; other results are left alone.
func TestAdviseResult(t *testing.T) {
	r := emit.Result{IsError: true, Text: "exceeded retry limit, last status: 429 Too Many Requests"}
	adviseResult(&r)
	if !strings.HasPrefix(r.Text, "exceeded retry limit") || !strings.Contains(r.Text, "wait a while") {
		t.Errorf("advised: %q", r.Text)
	}
	again := r.Text
	adviseResult(&r)
	if r.Text != again {
		t.Errorf("advice added twice: %q", r.Text)
	}
	for _, r := range []emit.Result{{Text: "API Error: 500 but it answered"}, {IsError: true, Text: "the program was killed by SIGINT"}} {
		before := r.Text
		adviseResult(&r)
		if r.Text != before {
			t.Errorf("%q became %q", before, r.Text)
		}
	}
}

// TestLogfmtError: opencode's and Kilo's log line of a failed request
// (--print-logs) is read as its error, without its fields (paths, ids).
func TestLogfmtError(t *testing.T) {
	for _, c := range []struct {
		line, want string
		ok         bool
	}{
		{`timestamp=2026-11-26T15:25:07.308Z level=ERROR run=89f244c1 message="stream error" providerID=fake modelID=m session.id=ses_x small=false agent=build mode=primary error.error="AI_APICallError: fake error 429"`,
			"stream error: AI_APICallError: fake error 429", true},
		{`timestamp=2026-11-26T15:25:00.555Z level=INFO run=89f244c1 message="creating instance" directory=/home/u/ws`, "", false},
		{`Attempt 1 failed with status 429. Retrying with backoff...`, "", false},
	} {
		got, ok := logfmtError(c.line)
		if got != c.want || ok != c.ok {
			t.Errorf("%.50s: %q %v, want %q %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

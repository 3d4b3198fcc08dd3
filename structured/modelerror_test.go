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
	for i := 1; ; i++ {
		fmt.Fprintf(os.Stderr, "Attempt %d failed with status 429. Retrying with backoff... _ApiError: {\"error\":{\"code\":429,\"message\":\"quota\"}}\n", i)
		fmt.Fprintln(os.Stderr, "    at throwErrorIfNotOK (file:///x/bundle.js:1:2)")
		fmt.Fprintln(os.Stderr, "  status: 429")
		time.Sleep(150 * time.Millisecond)
		if how == "recovers" && i == 2 {
			fmt.Println(`{"type":"message","role":"assistant","content":"done at last","delta":true}`)
			fmt.Println(`{"type":"result","status":"success"}`)
			return 0
		}
	}
}

// TestRunStopsRetriesPastTheBound: a JSON-mode provider retrying a model
// error on stderr is told to the GUI once per message and stopped at the
// bound, with one error result quoting it and saying what to do; one
// whose retry works ends as usual.
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
			for _, m := range events(t, out) {
				switch {
				case m["type"] == "result":
					results = append(results, m)
				case m["type"] == "system" && m["subtype"] == "notice":
					notices[fmt.Sprint(m["message"])]++
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
			errNotices := 0
			for m, n := range notices {
				if strings.Contains(m, "model's service") {
					errNotices++
					if n != 1 {
						t.Errorf("notice %q given %d times", m, n)
					}
				}
				if strings.Contains(m, "status: 429") || strings.Contains(m, "at throwErrorIfNotOK") {
					t.Errorf("a fragment of the error dump became a notice: %q", m)
				}
			}
			if errNotices == 0 {
				t.Errorf("no notice of the model error: %v", notices)
			}
		})
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

package heuristics

import (
	"math/rand"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// errorSeed is printed, so a failure can be repeated: YUME_SEED=N.
func errorSeed(t *testing.T) int64 {
	seed := time.Now().UnixNano()
	if s := os.Getenv("YUME_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	t.Logf("seed %d (YUME_SEED=%d repeats it)", seed, seed)
	return seed
}

// errorShapes are ways CLIs word a model error: {S} the status, {R} its
// reason phrase, {M} the service's message, {N} seconds, {K}/{X} attempts.
// Each says whether it announces a retry.
var errorShapes = []struct {
	line  string
	retry bool
}{
	{"● API Error: {S} {M}", false},
	{"Please run /login · API Error: {S} {M}", false},
	{"✕ [API Error: {\"error\":{\"code\":{S},\"message\":\"{M}\"}}]", false},
	{"■ unexpected status {S} {R}: {M}", false},
	{"Error: {S} {R}", false},
	{"  ⎿  API Error ({S} {R}) · Retrying in {N} seconds… (attempt {K}/{X})", true},
	{"✗ Request failed with status {S}: {M}", false},
	{"Attempt {K} failed with status {S}. Retrying with backoff...", true},
	{"stream error: HTTP {S}; retrying in {N}s", true},
	{"⚠ Reconnecting... {K}/{X} (status {S})", true},
	{"Execution failed: {S} {R}", false},
}

func wantClass(status int) ErrorClass {
	switch status {
	case 401, 403:
		return ErrorAuth
	case 429:
		return ErrorRateLimit
	case 503, 529:
		return ErrorOverloaded
	case 500, 502, 504:
		return ErrorServer
	}
	return ErrorOther
}

// noise is what else a screen shows: prose, code, command output, the
// chrome of a TUI, numbers that are no status.
var noise = []string{
	"", "❯ make the file", "● I'll create the file for you.", "  ⎿  wrote made.txt",
	"func main() { fmt.Println(\"hi\") }", "ran 500 tests in 4.01s", "see issue #429 for details",
	"took 401 ms", "HTTP/1.1 200 OK", "we should add a rate limit to the API later",
	"error handling looks fine here", "────────────────────────", "  ? for shortcuts",
	"│ Type your message or @path/to/file │", "✻ Worked for 3s", "$ ls -la", "total 12",
	"the server is unavailable on weekends, says the README", "port 4290 is free",
}

// frameLine draws a line as a TUI might: plain, in a box, or indented.
func frameLine(rng *rand.Rand, s string) string {
	switch rng.Intn(4) {
	case 0:
		return "│ " + s + strings.Repeat(" ", rng.Intn(20)) + " │"
	case 1:
		return "  " + s
	}
	return s
}

func genScreen(rng *rand.Rand, errLine string) string {
	var rows []string
	for range rng.Intn(15) {
		rows = append(rows, frameLine(rng, noise[rng.Intn(len(noise))]))
	}
	if errLine != "" {
		rows = append(rows, frameLine(rng, errLine))
	}
	for range rng.Intn(10) {
		rows = append(rows, frameLine(rng, noise[rng.Intn(len(noise))]))
	}
	return strings.Join(rows, "\n")
}

// TestFindModelErrorGenerated: a generated screen with one error line,
// in any of the shapes, framed, among noise, is found with its status,
// class and whether the CLI retries; a screen of noise alone is no error.
func TestFindModelErrorGenerated(t *testing.T) {
	rng := rand.New(rand.NewSource(errorSeed(t)))
	statuses := []int{401, 403, 429, 500, 502, 503, 504, 529}
	for i := range 2000 {
		shape := errorShapes[rng.Intn(len(errorShapes))]
		status := statuses[rng.Intn(len(statuses))]
		msg := []string{"fake error", "Something went wrong", "Please try again later", "request id abc123"}[rng.Intn(4)]
		reason := http.StatusText(status)
		if reason == "" {
			reason = "Overloaded" // 529, Anthropic's own
		}
		line := strings.NewReplacer("{S}", strconv.Itoa(status), "{R}", reason, "{M}", msg,
			"{N}", strconv.Itoa(1+rng.Intn(60)), "{K}", strconv.Itoa(1+rng.Intn(5)), "{X}", strconv.Itoa(5+rng.Intn(6))).Replace(shape.line)
		screen := genScreen(rng, line)
		e := FindModelError(screen)
		if e == nil {
			t.Fatalf("case %d: no error found in\n%s", i, screen)
		}
		if e.Status != status || e.Class != wantClass(status) || e.Retrying != shape.retry {
			t.Fatalf("case %d: got %+v, want status %d class %s retrying %v, screen:\n%s", i, *e, status, wantClass(status), shape.retry, screen)
		}
		if !strings.Contains(line, e.Text) || strings.HasPrefix(e.Text, "│") {
			t.Fatalf("case %d: text %q is not the CLI's line %q, unframed", i, e.Text, line)
		}
		if clean := genScreen(rng, ""); FindModelError(clean) != nil {
			t.Fatalf("case %d: noise read as an error: %+v in\n%s", i, *FindModelError(clean), clean)
		}
	}
}

// TestClassifyErrorPhrases: the common phrases without a status.
func TestClassifyErrorPhrases(t *testing.T) {
	for _, c := range []struct {
		text string
		want ErrorClass
	}{
		{"Invalid API key · Fix external API key", ErrorAuth},
		{"Error: API key not valid. Please pass a valid API key.", ErrorAuth},
		{"Authentication failed: invalid x-api-key", ErrorAuth},
		{"Rate limit reached for gpt-5 in organization org-x", ErrorRateLimit},
		{"You exceeded your current quota, please check your plan and billing details.", ErrorRateLimit},
		{"RESOURCE_EXHAUSTED: Too Many Requests", ErrorRateLimit},
		{"Overloaded", ErrorOverloaded},
		{"Error: the model is overloaded, try again", ErrorOverloaded},
		{"Internal server error", ErrorServer},
		{"stream error: bad gateway", ErrorServer},
	} {
		e := ClassifyError(c.text)
		if e == nil || e.Class != c.want {
			t.Errorf("%q: got %+v, want class %s", c.text, e, c.want)
		}
	}
	for _, text := range []string{"we hit 500 lines", "add a quota check to the config", "the service is unavailable on weekends",
		"Created 401.txt", "status: ok", "HTTP 200"} {
		if e := ClassifyError(text); e != nil {
			t.Errorf("%q read as an error: %+v", text, *e)
		}
	}
}

// TestClassifyRetryAndModel: a retry announced with no status ("API error
// · Retrying in 2s · attempt 3/10", Claude Code's words at every attempt)
// is a model error of another kind, retrying; a model the key cannot use
// is no_model; both are told apart from prose about retries and models.
// Only credentials and a missing model are final (no retry fixes them),
// and only a rate limit is shown as rate_limit.
func TestClassifyRetryAndModel(t *testing.T) {
	for _, c := range []struct {
		text     string
		class    ErrorClass
		status   int
		retrying bool
	}{
		{"✻ API error · Retrying in 2s · attempt 3/10", ErrorOther, 0, true},
		{"API error (attempt 1/4): HTTP 401 authentication_error: fake error 401", ErrorAuth, 401, true},
		{"Attempt 1 failed. Retrying with backoff...", ErrorOther, 0, true},
		{"Request failed due to a transient API error. Retrying...", ErrorOther, 0, true},
		{"stream error, reconnecting 2/5", ErrorOther, 0, true},
		{"API Error: 404 {\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: claude-x\"}}", ErrorNoModel, 404, false},
		{"Error: The model `gpt-9` does not exist or you do not have access to it.", ErrorNoModel, 0, false},
		{"[API Error: models/gemini-9 is not found for API version v1beta]", ErrorNoModel, 0, false},
		{"unexpected status 400 Bad Request: Unsupported model", ErrorNoModel, 400, false},
		{"Error: 429 Too Many Requests · Retrying in 5s", ErrorRateLimit, 429, true},
	} {
		e := ClassifyError(c.text)
		if e == nil || e.Class != c.class || e.Status != c.status || e.Retrying != c.retrying {
			t.Errorf("%q: got %+v, want class %s status %d retrying %v", c.text, e, c.class, c.status, c.retrying)
		}
	}
	for _, text := range []string{"I'll retry the failed test in a moment", "Retrying the build now", "attempt 2/3 at the puzzle",
		"the model is fast", "pick a model from the list", "retry after lunch"} {
		if e := ClassifyError(text); e != nil {
			t.Errorf("%q read as an error: %+v", text, *e)
		}
	}
	for _, c := range []struct {
		class   ErrorClass
		final   bool
		subtype string
	}{
		{ErrorAuth, true, "error"}, {ErrorNoModel, true, "error"}, {ErrorRateLimit, false, "rate_limit"},
		{ErrorOverloaded, false, "error"}, {ErrorServer, false, "error"}, {ErrorOther, false, "error"},
	} {
		e := &ModelError{Class: c.class}
		if e.Final() != c.final || e.Subtype() != c.subtype {
			t.Errorf("%s: final %v subtype %s, want %v %s", c.class, e.Final(), e.Subtype(), c.final, c.subtype)
		}
	}
}

// TestModelErrorKey: a countdown is one message, another attempt another.
func TestModelErrorKey(t *testing.T) {
	a := ClassifyError("API Error (429) · Retrying in 9 seconds… (attempt 2/10)")
	b := ClassifyError("API Error (429) · Retrying in 8 seconds… (attempt 2/10)")
	c := ClassifyError("API Error (429) · Retrying in 30 seconds… (attempt 3/10)")
	if a == nil || b == nil || c == nil {
		t.Fatal("not recognised")
	}
	if a.Key() != b.Key() {
		t.Errorf("a countdown gives two keys: %q, %q", a.Key(), b.Key())
	}
	if a.Key() == c.Key() {
		t.Errorf("another attempt gives the same key %q", a.Key())
	}
	// The screen and the debug log tell one attempt in their own words.
	screen := ClassifyError("✻ API error · Retrying in 2s · attempt 3/10")
	logged := ClassifyError("API error (attempt 3/11): HTTP 429 rate_limit_error: fake error 429")
	if screen == nil || logged == nil || screen.Key() != logged.Key() || screen.Text != "API error · Retrying in 2s · attempt 3/10" {
		t.Errorf("one attempt, told twice: %+v and %+v", screen, logged)
	}
	if nth := ClassifyError("API error (attempt 4/11): HTTP 429 rate_limit_error: fake error 429"); nth == nil || nth.Key() == logged.Key() {
		t.Errorf("attempt 4 has attempt 3's key: %+v", nth)
	}
	for _, cl := range []ErrorClass{ErrorAuth, ErrorNoModel, ErrorRateLimit, ErrorOverloaded, ErrorServer, ErrorOther} {
		e := &ModelError{Class: cl}
		if adv := e.Advice(); !strings.Contains(adv, "try again") && !strings.Contains(adv, "check") {
			t.Errorf("%s: advice %q says nothing to do", cl, adv)
		}
	}
}

// TestErrorBound: the env changes the bound; nonsense keeps the default.
func TestErrorBound(t *testing.T) {
	t.Setenv("YUME_MODEL_ERROR_BOUND", "3s")
	if got := ErrorBound(); got != 3*time.Second {
		t.Errorf("bound %v, want 3s", got)
	}
	t.Setenv("YUME_MODEL_ERROR_BOUND", "soon")
	if got := ErrorBound(); got != ModelErrorBound {
		t.Errorf("bound %v, want %v", got, ModelErrorBound)
	}
}

// TestProfileErrorRules: each AI TUI's error rule reads the error as it
// drew it against the fake model (PTY runs of claude 2.1.332, codex
// 0.169.0, copilot 1.0.102, gemini 0.61.0), and the generic layer
// classifies the rule's text.
func TestProfileErrorRules(t *testing.T) {
	for _, c := range []struct {
		profile, screen, rule, text string
		class                       ErrorClass
	}{
		{"claude", "❯ make the file\n\n● Please run /login · API Error: 401 fake error 401\n\n\n────────\n❯ Once fixed, resend your message\n────────\n",
			"api-error", "Please run /login · API Error: 401 fake error 401", ErrorAuth},
		{"claude", "❯ make the file\n\n● API Error: 500 fake error 500. This is a server-side issue, usually temporary — try again in a moment. If it\n  persists, check your inference gateway (127.0.0.1:34063).\n\n\n",
			"api-error", "API Error: 500 fake error 500. This is a server-side issue, usually temporary — try again in a moment. If it\npersists, check your inference gateway (127.0.0.1:34063).", ErrorServer},
		{"claude", "❯ make the file\n\n● API Error: Request rejected (429) · fake error 429\n",
			"api-error", "API Error: Request rejected (429) · fake error 429", ErrorRateLimit},
		{"codex", "› make the file\n\n\n■ unexpected status 401 Unauthorized: fake error 401, url: http://127.0.0.1:38807/v1/responses\n",
			"model-error", "unexpected status 401 Unauthorized: fake error 401, url: http://127.0.0.1:38807/v1/responses", ErrorAuth},
		{"codex", "› make the file\n\n• Reconnecting... 1/5 (5s • esc to interrupt)\n  └ We’re currently experiencing high demand, which may cause temporary errors.\n",
			"reconnecting", "Reconnecting... 1/5 (5s • esc to interrupt)\n└ We’re currently experiencing high demand, which may cause temporary errors.", ErrorOverloaded},
		{"copilot", "  ❯ make the file\n ● Request failed due to a transient API error. Retrying...\n",
			"model-error", "Request failed due to a transient API error. Retrying...", ErrorOther},
		{"gemini", " > make the file\n✕ [API Error: {\"error\":{\"code\":401,\"message\":\"fake error 401\",\"status\":\"UNAUTHENTICATED\"}}]\n\n\nℹ This request failed. Press F12 for diagnostics.\n",
			"api-error", "[API Error: {\"error\":{\"code\":401,\"message\":\"fake error 401\",\"status\":\"UNAUTHENTICATED\"}}]", ErrorAuth},
	} {
		p, err := LoadProfile(c.profile)
		if err != nil {
			t.Fatal(err)
		}
		det, _ := NewEngine(p).Evaluate(screenOf(120, 30, c.screen), true)
		if det == nil || det.Rule.Name != c.rule || det.Kind != KindError || det.Text != c.text {
			t.Errorf("%s: detection %+v, want rule %s with text %q", c.profile, det, c.rule, c.text)
			continue
		}
		e := ClassifyError(det.Text)
		switch {
		case c.class == "" && e != nil:
			t.Errorf("%s: %q classified %+v; the profile's rule alone knows it", c.profile, det.Text, *e)
		case c.class != "" && (e == nil || e.Class != c.class):
			t.Errorf("%s: %q classified %+v, want %s", c.profile, det.Text, e, c.class)
		}
	}
}

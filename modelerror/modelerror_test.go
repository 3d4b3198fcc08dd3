package modelerror

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

func wantClass(status int) Class {
	switch status {
	case 401, 403:
		return Auth
	case 429:
		return RateLimit
	case 503, 529:
		return Overloaded
	case 500, 502, 504:
		return Server
	}
	return Other
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

// TestFindGenerated: a generated screen with one error line,
// in any of the shapes, framed, among noise, is found with its status,
// class and whether the CLI retries; a screen of noise alone is no error.
func TestFindGenerated(t *testing.T) {
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
		e := Find(screen)
		if e == nil {
			t.Fatalf("case %d: no error found in\n%s", i, screen)
		}
		if e.Status != status || e.Class != wantClass(status) || e.Retrying != shape.retry {
			t.Fatalf("case %d: got %+v, want status %d class %s retrying %v, screen:\n%s", i, *e, status, wantClass(status), shape.retry, screen)
		}
		if !strings.Contains(line, e.Text) || strings.HasPrefix(e.Text, "│") {
			t.Fatalf("case %d: text %q is not the CLI's line %q, unframed", i, e.Text, line)
		}
		if clean := genScreen(rng, ""); Find(clean) != nil {
			t.Fatalf("case %d: noise read as an error: %+v in\n%s", i, *Find(clean), clean)
		}
	}
}

// TestClassifyPhrases: the common phrases without a status.
func TestClassifyPhrases(t *testing.T) {
	for _, c := range []struct {
		text string
		want Class
	}{
		{"Invalid API key · Fix external API key", Auth},
		{"Error: API key not valid. Please pass a valid API key.", Auth},
		{"Authentication failed: invalid x-api-key", Auth},
		{"Rate limit reached for gpt-5 in organization org-x", RateLimit},
		{"You exceeded your current quota, please check your plan and billing details.", RateLimit},
		{"RESOURCE_EXHAUSTED: Too Many Requests", RateLimit},
		{"Overloaded", Overloaded},
		{"Error: the model is overloaded, try again", Overloaded},
		{"Internal server error", Server},
		{"stream error: bad gateway", Server},
	} {
		e := Classify(c.text)
		if e == nil || e.Class != c.want {
			t.Errorf("%q: got %+v, want class %s", c.text, e, c.want)
		}
	}
	for _, text := range []string{"we hit 500 lines", "add a quota check to the config", "the service is unavailable on weekends",
		"Created 401.txt", "status: ok", "HTTP 200"} {
		if e := Classify(text); e != nil {
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
		class    Class
		status   int
		retrying bool
	}{
		{"✻ API error · Retrying in 2s · attempt 3/10", Other, 0, true},
		{"API error (attempt 1/4): HTTP 401 authentication_error: fake error 401", Auth, 401, true},
		{"Attempt 1 failed. Retrying with backoff...", Other, 0, true},
		{"Request failed due to a transient API error. Retrying...", Other, 0, true},
		{"stream error, reconnecting 2/5", Other, 0, true},
		{"API Error: 404 {\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: claude-x\"}}", NoModel, 404, false},
		{"Error: The model `gpt-9` does not exist or you do not have access to it.", NoModel, 0, false},
		{"[API Error: models/gemini-9 is not found for API version v1beta]", NoModel, 0, false},
		{"unexpected status 400 Bad Request: Unsupported model", NoModel, 400, false},
		{"Error: 429 Too Many Requests · Retrying in 5s", RateLimit, 429, true},
	} {
		e := Classify(c.text)
		if e == nil || e.Class != c.class || e.Status != c.status || e.Retrying != c.retrying {
			t.Errorf("%q: got %+v, want class %s status %d retrying %v", c.text, e, c.class, c.status, c.retrying)
		}
	}
	for _, text := range []string{"I'll retry the failed test in a moment", "Retrying the build now", "attempt 2/3 at the puzzle",
		"the model is fast", "pick a model from the list", "retry after lunch"} {
		if e := Classify(text); e != nil {
			t.Errorf("%q read as an error: %+v", text, *e)
		}
	}
	for _, c := range []struct {
		class   Class
		final   bool
		subtype string
	}{
		{Auth, true, "error"}, {NoModel, true, "error"}, {RateLimit, false, "rate_limit"},
		{Overloaded, false, "error"}, {Server, false, "error"}, {Other, false, "error"},
	} {
		e := &Error{Class: c.class}
		if e.Final() != c.final || e.Subtype() != c.subtype {
			t.Errorf("%s: final %v subtype %s, want %v %s", c.class, e.Final(), e.Subtype(), c.final, c.subtype)
		}
	}
}

// TestKey: a countdown is one message, another attempt another.
func TestKey(t *testing.T) {
	a := Classify("API Error (429) · Retrying in 9 seconds… (attempt 2/10)")
	b := Classify("API Error (429) · Retrying in 8 seconds… (attempt 2/10)")
	c := Classify("API Error (429) · Retrying in 30 seconds… (attempt 3/10)")
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
	screen := Classify("✻ API error · Retrying in 2s · attempt 3/10")
	logged := Classify("API error (attempt 3/11): HTTP 429 rate_limit_error: fake error 429")
	if screen == nil || logged == nil || screen.Key() != logged.Key() || screen.Text != "API error · Retrying in 2s · attempt 3/10" {
		t.Errorf("one attempt, told twice: %+v and %+v", screen, logged)
	}
	if nth := Classify("API error (attempt 4/11): HTTP 429 rate_limit_error: fake error 429"); nth == nil || nth.Key() == logged.Key() {
		t.Errorf("attempt 4 has attempt 3's key: %+v", nth)
	}
	for _, cl := range []Class{Auth, NoModel, RateLimit, Overloaded, Server, Other} {
		e := &Error{Class: cl}
		if adv := e.Advice(); !strings.Contains(adv, "try again") && !strings.Contains(adv, "check") {
			t.Errorf("%s: advice %q says nothing to do", cl, adv)
		}
	}
}

// TestBound: the env changes the bound; nonsense keeps the default.
func TestBound(t *testing.T) {
	t.Setenv("YUME_MODEL_ERROR_BOUND", "3s")
	if got := Bound(); got != 3*time.Second {
		t.Errorf("bound %v, want 3s", got)
	}
	t.Setenv("YUME_MODEL_ERROR_BOUND", "soon")
	if got := Bound(); got != DefaultBound {
		t.Errorf("bound %v, want %v", got, DefaultBound)
	}
}

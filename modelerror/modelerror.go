// Package modelerror knows model errors: the model's service refused or
// failed a request, and a CLI says so in its own words. It reads those
// words (Classify, Find), says what kind of failure it is, what to do, how
// long a CLI may retry (Bound) and what the GUI is told while it does. The
// PTY driver and the structured modes both use it; each keeps only its own
// way of watching a program.
package modelerror

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// Model errors: the model's service refused or failed a request (a bad
// key, a rate limit, an overloaded or broken server), and the CLI says so
// on its screen or in its transcript, retries for a while, then gives up. The
// generic layer here knows what every CLI's words have in common (an HTTP
// status in an error, and the common phrases); a profile's `error` rules
// add a CLI's own wording. The driver and the structured modes both use
// it to tell the GUI while the CLI retries and to end the turn with the
// CLI's words and what to do.

// Class is what kind of failure a model error is, which decides what
// the user should do about it.
type Class string

// The classes of model errors.
const (
	Auth       Class = "auth"        // 401/403, invalid key, not logged in
	NoModel    Class = "no_model"    // the model does not exist or the key has no access to it
	RateLimit  Class = "rate_limit"  // 429, quota, too many requests
	Overloaded Class = "overloaded"  // 503/529, overloaded, unavailable
	Server     Class = "server"      // 500/502/504, internal server error
	Other      Class = "model_error" // an API error of another kind
)

// Error is one model error in the CLI's words.
type Error struct {
	Class  Class
	Status int    // the HTTP status it names; 0 when none
	Text   string // the CLI's words: the line that says it, trimmed
	// Retrying: the CLI says it tries again ("retrying in 5s",
	// "attempt 2/10", "Reconnecting… 2/5").
	Retrying bool
}

// DefaultBound is how long after its first model error a CLI may
// retry without progress (no answer, no tool call) before yume-cli stops
// it and ends the turn with the error. CLIs that retry longer (Claude
// Code backs off for minutes) are cut here; an error no retry can fix
// (Final) ends the turn at once. The env YUME_MODEL_ERROR_BOUND (a Go
// duration) changes it, for tests.
const DefaultBound = 60 * time.Second

// Bound is DefaultBound, or YUME_MODEL_ERROR_BOUND when set to a
// valid positive duration.
func Bound() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("YUME_MODEL_ERROR_BOUND")); err == nil && d > 0 {
		return d
	}
	return DefaultBound
}

// Advice says what to do about the error, for the turn's error result.
func (e *Error) Advice() string {
	switch e.Class {
	case Auth:
		return "the model's service refused the credentials: check the API key (or log in again in the CLI), then try again"
	case NoModel:
		return "the model is not there for this key or account: pick another model (--model, or the CLI's own setting), or check the key's access to it, then try again"
	case RateLimit:
		return "the model's service is rate limiting this account or its quota is used up: wait a while (or check the plan's quota), then try again"
	case Overloaded:
		return "the model's service is overloaded: wait a minute and try again"
	case Server:
		return "the model's service failed (a server error on its side, not in this chat): try again later"
	}
	return "the model's service answered with an error: check the CLI's configuration (key, endpoint, model) and try again"
}

// Todo is Advice as a sentence: what the turn's error says to do.
func (e *Error) Todo() string {
	a := e.Advice()
	return strings.ToUpper(a[:1]) + a[1:]
}

// Retries is what the GUI is told while program name retries after e:
// its words (with its attempt count, where it gives one) and, where its
// words have none, the status.
func (e *Error) Retries(name string) string {
	return fmt.Sprintf("%s: the model's service failed a request; %s retries: %s", name, name, e.Describe())
}

// Final reports whether no retry can fix the error: the credentials were
// refused, or the model is not there for them. The turn ends at once,
// however long the CLI would go on retrying.
func (e *Error) Final() bool { return e.Class == Auth || e.Class == NoModel }

// Subtype is the system subtype that shows the error in Yume: rate_limit
// for a rate limit or a used-up quota, error for anything else.
func (e *Error) Subtype() string {
	if e.Class == RateLimit {
		return "rate_limit"
	}
	return "error"
}

// Key identifies the message for "once per distinct message": a
// countdown ("retrying in 9s… 8s…") is one message; another attempt
// number is another. A retry that names its attempt is that attempt,
// whoever tells it: the screen and the program's debug log both say
// attempt 3, in their own words, and the GUI hears it once.
func (e *Error) Key() string {
	if m := attemptRe.FindStringSubmatch(e.Text); m != nil && e.Retrying {
		return "attempt|" + m[1]
	}
	return string(e.Class) + "|" + countdown.ReplaceAllString(strings.ToLower(e.Text), "#")
}

var attemptRe = lazyre.New(`(?i)\battempt\s*#?(\d+)\b`)

var countdown = lazyre.New(`\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds?|m|min|minutes?)\b|\d{1,2}:\d\d`)

var (
	// A status in an error: "API Error: 401", "HTTP 429", "status 500",
	// "[429 Too Many Requests]", `"code": 503`, "got status: 429".
	statusRe = lazyre.New(`(?i)(?:\b(?:http|status(?:\s*code)?|error|code|api error|got status|failed|returned)\W{0,4}|"(?:code|status)"\s*:\s*|\[)([45]\d\d)\b` +
		`|\b([45]\d\d)\s+(?:too many requests|unauthori[sz]ed|forbidden|internal server error|service unavailable|bad gateway|gateway time-?out|overloaded)`)
	authRe = lazyre.New(`(?i)invalid[ _-]?(?:x-)?api[ _-]?key|api[ _-]?key (?:is )?(?:not valid|invalid|expired|missing)|incorrect api key|unauthori[sz]ed|authentication[_ ](?:error|failed)|failed to authenticate|not logged in|please (?:run )?/login|invalid (?:authentication|credentials|bearer token|token)|permission_denied|\bforbidden\b`)
	rateRe = lazyre.New(`(?i)rate[ _-]?limit|too many requests|quota|resource[_ ]exhausted|usage limit`)
	// The model is not there: the service does not know it, or the key
	// may not use it.
	noModelRe = lazyre.New(`(?i)model[^\n]{0,80}?(?:not[ _]found|does not exist|doesn't exist|is not (?:available|supported)|not supported|unknown)|(?:unknown|invalid|unsupported) model|(?:no|not have|doesn't have|does not have) access to (?:the )?model|model_not_found|not_found_error[^\n]{0,80}model`)
	// A retry announced after a failed request, with no status or phrase
	// to class it ("API error · Retrying in 2s · attempt 3/10", "Attempt
	// 1 failed. Retrying with backoff..."): a model error of another kind.
	retryErrRe = lazyre.New(`(?i)\b(?:api|request|model|server|service|connection|network|stream)\s+(?:error|failed|failure)\b|\battempt\s*#?\d+\s+failed\b`)
	overRe     = lazyre.New(`(?i)overloaded|service unavailable|\bunavailable\b|at capacity|high demand`)
	servRe     = lazyre.New(`(?i)internal server error|server error|bad gateway|gateway time-?out|internal error`)
	// An error word: without one, a phrase is talk about errors, not one.
	errWordRe = lazyre.New(`(?i)\berrors?\b|\bfail(?:ed|ure)?\b|exceeded|\bunable\b|could ?n[o']t|invalid|reached|\bhit\b|refused|✕|✗|⚠|■`)
	retryRe   = lazyre.New(`(?i)\bretrying\b|\bretry(?:ing)? (?:in|after)\b|\battempt\s*#?\d+\s*(?:/|of)\s*\d+|\bretry\s*\d+\s*(?:/|of)\s*\d+|reconnecting|will retry|trying again`)
	// Box and bullet characters a TUI draws around a line.
	frame = "│┃║╎┆└├╰╭╮╯┌┐┘┤─ \t●○•✦✕✗✘⎿■▪⚠!×>❯›·-✻✽✶✳✢"
)

// Classify reads one text (a line, a transcript's message) as a model
// error, or nil if it is none. A status code counts in an error context
// ("API Error: 429", "HTTP 500"); a phrase ("rate limit", "overloaded",
// "invalid API key") counts with an error word on the same text.
func Classify(text string) *Error {
	t := strings.Trim(text, frame)
	if t == "" || len(t) > 2000 {
		return nil
	}
	e := &Error{Text: t}
	if m := statusRe.FindStringSubmatch(t); m != nil {
		code := m[1]
		if code == "" {
			code = m[2]
		}
		e.Status, _ = strconv.Atoi(code)
	}
	switch {
	case (e.Status == 404 || e.Status == 400 || e.Status == 403 || e.Status == 0) && noModelRe.MatchString(t):
		e.Class = NoModel
	case e.Status == 401 || e.Status == 403 || authRe.MatchString(t) && e.Status == 0:
		e.Class = Auth
	case e.Status == 429 || rateRe.MatchString(t) && e.Status == 0:
		e.Class = RateLimit
	case e.Status == 503 || e.Status == 529 || overRe.MatchString(t) && (e.Status == 0 || e.Status >= 500):
		e.Class = Overloaded
	case e.Status >= 500 || servRe.MatchString(t) && e.Status == 0:
		e.Class = Server
	case e.Status >= 400:
		e.Class = Other
	case retryRe.MatchString(t) && retryErrRe.MatchString(t):
		e.Class = Other
	default:
		return nil
	}
	if e.Status == 0 && !errWordRe.MatchString(t) && !strings.Contains(strings.ToLower(t), "too many requests") &&
		!strings.Contains(strings.ToLower(t), "overloaded") {
		return nil // a phrase without an error: talk about one
	}
	e.Retrying = retryRe.MatchString(t)
	return e
}

// Find finds the model error a screen or a stretch of a transcript
// shows, line by line: the last line that is one (the newest), with the
// class and status of the most specific line near it, and Retrying when
// any line says the CLI tries again. Nil when there is none.
func Find(text string) *Error {
	var found *Error
	retrying := false
	for _, line := range strings.Split(text, "\n") {
		if retryRe.MatchString(line) {
			retrying = true
		}
		e := Classify(line)
		if e == nil {
			continue
		}
		if found == nil || e.Status != 0 || found.Status == 0 {
			found = e
		}
	}
	if found != nil {
		found.Retrying = found.Retrying || retrying
	}
	return found
}

// SaysRetry reports whether text says the program tries again
// ("Retrying...", "attempt 2/10", "Reconnecting... 1/5").
func SaysRetry(text string) bool { return retryRe.MatchString(text) }

// Describe is the error for a person: the CLI's words and the status.
func (e *Error) Describe() string {
	if e.Status != 0 && !strings.Contains(e.Text, strconv.Itoa(e.Status)) {
		return fmt.Sprintf("%s (HTTP %d)", e.Text, e.Status)
	}
	return e.Text
}

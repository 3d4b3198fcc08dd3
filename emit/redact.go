package emit

import (
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// secretRule finds one kind of secret. Regexps only run when the text
// contains one of the rule's triggers (plain substrings, cheap to look
// for), because almost all tool output contains no secret at all. A
// trigger need not be a prefix; one whose first byte is rare in ordinary
// text makes strings.Index fastest.
type secretRule struct {
	kind     string
	triggers []string
	re       *lazyre.Regexp
	// group is the submatch holding the secret (0: the whole match); text
	// around it, such as "Bearer " or "postgres://user:", is kept.
	group int
	// plausible, when set, vets a candidate so that ordinary words shaped
	// like a token are left alone.
	plausible func(secret string) bool
	// multiline rules run over the whole text; the others only over the
	// lines holding a trigger (most patterns start with \b, which disables
	// the regexp package's literal-prefix scan, so a whole-text run costs
	// milliseconds per 100 KB).
	multiline bool
	// find, when set instead of re, returns the [start, end) spans of the
	// secrets in a line.
	find func(line string) [][2]int
}

// secretRules run in order: PEM blocks first (they contain many
// token-shaped lines), Anthropic before OpenAI (both start "sk-").
var secretRules = []secretRule{
	// A block cut short by a size cap has no END line: redact to the end.
	{kind: "private-key", triggers: []string{"PRIVATE KEY-----"},
		re:        lazyre.New(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY-----|\z)`),
		multiline: true},
	{kind: "github-token", triggers: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
		re: lazyre.New(`\bgh[pousr]_[A-Za-z0-9]{36,255}\b`)},
	{kind: "github-token", triggers: []string{"github_pat_"},
		re: lazyre.New(`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`)},
	{kind: "anthropic-key", triggers: []string{"k-ant-"},
		re: lazyre.New(`\bsk-ant-[A-Za-z0-9_\-]{20,}`)},
	// Not inside a longer token: \b would take "-sk-…" in a base64url
	// blob for a key (a seeded random-data test found one).
	{kind: "openai-key", triggers: []string{"k-"},
		re:        lazyre.New(`(?:^|[^A-Za-z0-9_\-])(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,})`),
		group:     1,
		plausible: looksRandom},
	{kind: "google-api-key", triggers: []string{"AIza"},
		re: lazyre.New(`\bAIza[0-9A-Za-z_\-]{35}`)},
	{kind: "aws-access-key-id", triggers: []string{"AKIA", "ASIA"},
		re: lazyre.New(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
	{kind: "aws-secret-access-key", triggers: []string{"_access_key", "_ACCESS_KEY", "AccessKey"},
		re: lazyre.New(`(?i)(aws_?secret_?access_?key["']?\s*[=:]\s*["']?)([A-Za-z0-9/+=]{16,})`), group: 2},
	{kind: "npm-token", triggers: []string{"pm_"},
		re: lazyre.New(`\bnpm_[A-Za-z0-9]{36}\b`)},
	{kind: "slack-token", triggers: []string{"xox"},
		re: lazyre.New(`\bxox[abpr]-[A-Za-z0-9\-]{10,}`)},
	// scheme://user:PASSWORD@host keeps scheme, user and host. URLs are
	// everywhere in output, so this one is matched by hand.
	{kind: "password", triggers: []string{"://"}, find: findURLPasswords},
	// An Authorization header names its token: redact whatever follows.
	{kind: "bearer-token", triggers: []string{"uthoriz", "UTHORIZ"},
		re: lazyre.New(`(?i)(authorization["']?\s*[:=]\s*["']?bearer\s+)([A-Za-z0-9._~+/=\-]+)`), group: 2},
	// A bare "Bearer xxx" must look like a token, not prose ("bearer bonds").
	{kind: "bearer-token", triggers: []string{"Bearer", "bearer", "BEARER"},
		re: lazyre.New(`(?i)(\bbearer\s+)([A-Za-z0-9._~+/\-]{16,}=*)`), group: 2,
		plausible: looksRandom},
	// Google OAuth access tokens.
	{kind: "google-oauth-token", triggers: []string{"ya29."},
		re: lazyre.New(`\bya29\.[0-9A-Za-z_\-]{20,}`)},
	// A value assigned to a name that says it is secret: api_key = …,
	// password: …, GITHUB_TOKEN=…, "client_secret": "…". The name must end
	// in the word (input_tokens: 12 is not one); the value is kept when it
	// is a placeholder or a plain number.
	{kind: "secret-assignment", triggers: assignmentTriggers,
		re:    lazyre.New(`(?i)((?:\b|_)(?:api[_-]?key|apikey|secret[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|private[_-]?key|password|passwd|passphrase|secret|token)["']?\s*[=:]\s*["']?)([^\s"'\x60,;&\\<>(){}\[\]]{6,})`),
		group: 2, plausible: notPlaceholder},
}

// assignmentTriggers are the spellings of the secret names people write.
var assignmentTriggers = []string{
	"key", "KEY", "Key", "token", "TOKEN", "Token", "assw", "ASSW", "ecret", "ECRET", "passphrase", "PASSPHRASE",
}

// notPlaceholder rejects values that are not secrets: numbers, variable
// references, masks, an earlier redaction and the words configs use for
// "unset".
func notPlaceholder(v string) bool {
	if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%") || strings.HasPrefix(v, "[REDACTED") || strings.Trim(v, "*xX.-_") == "" {
		return false
	}
	switch strings.ToLower(v) {
	case "undefined", "required", "optional", "string", "false", "none", "null", "changeme", "example":
		return false
	}
	for _, r := range v {
		if !unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// looksRandom reports whether a token-shaped candidate mixes letters and
// digits as generated secrets do, which words and identifiers such as
// "sk-learn-compatible-estimators" do not.
func looksRandom(s string) bool {
	var digit, letter bool
	for _, r := range s {
		digit = digit || unicode.IsDigit(r)
		letter = letter || unicode.IsLetter(r)
	}
	return digit && letter
}

// Redact returns s with secrets replaced by "[REDACTED:kind]": GitHub,
// OpenAI, Anthropic, Google, npm and Slack tokens, AWS access key ids and
// secret keys, PEM private key blocks, passwords in connection strings
// (scheme://user:PASSWORD@host keeps scheme, user and host) and bearer
// tokens. Text without secrets is returned as it is.
func Redact(s string) string { return redact(s, false) }

// hasSecret reports whether Redact would change s, without counting.
func hasSecret(s string) bool {
	for i := range secretRules {
		if r := &secretRules[i]; containsAny(s, r.triggers) {
			out := rewriter{s: s, dryRun: true}
			if r.applyTo(&out); out.dirty {
				return true
			}
		}
	}
	return false
}

// RedactCommand redacts a command that a person approves and that then
// runs: only a secret made of token characters is hidden, so the hidden
// bytes can be nothing but the value (no quote, space, ;, $ or newline
// that would change what the command does). A secret that is not (a PEM
// block, a password with shell characters) stays visible: the approved
// command is exact first.
func RedactCommand(s string) string { return redact(s, true) }

func redact(s string, tokensOnly bool) string {
	for i := range secretRules {
		if r := &secretRules[i]; containsAny(s, r.triggers) {
			s = r.apply(s, tokensOnly)
		}
	}
	return s
}

// redactions counts the secrets redacted in this process, for --verbose.
var redactions atomic.Int64

// Redactions is how many secrets were redacted so far in this process.
func Redactions() int64 { return redactions.Load() }

// tokenOnly reports whether s is made of characters that can only be part
// of a shell word's value.
func tokenOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isLetter(c) || c >= '0' && c <= '9' || strings.IndexByte("._~+/=%-@:", c) >= 0) {
			return false
		}
	}
	return s != ""
}

// apply replaces every plausible match of r in s.
func (r *secretRule) apply(s string, tokensOnly bool) string {
	return r.applyTo(&rewriter{s: s, tokensOnly: tokensOnly})
}

// applyTo replaces every plausible match of r in out.s.
func (r *secretRule) applyTo(out *rewriter) string {
	s := out.s
	if r.multiline {
		r.replaceIn(out, 0, len(s))
		return out.String()
	}
	next := make([]int, len(r.triggers)) // next occurrence of each trigger
	for i := range next {
		next[i] = -2 // not searched yet
	}
	for pos := 0; pos < len(s); {
		at := -1
		for i, t := range r.triggers {
			if next[i] != -1 && next[i] < pos {
				next[i] = -1
				if j := strings.Index(s[pos:], t); j >= 0 {
					next[i] = pos + j
				}
			}
			if next[i] >= 0 && (at < 0 || next[i] < at) {
				at = next[i]
			}
		}
		if at < 0 {
			break
		}
		// Search the trigger's line (within lineWindow either side).
		start := max(strings.LastIndexByte(s[pos:at], '\n')+1+pos, at-lineWindow)
		end := min(len(s), at+lineWindow)
		if j := strings.IndexByte(s[at:end], '\n'); j >= 0 {
			end = at + j
		}
		r.replaceIn(out, start, end)
		pos = end + 1
	}
	return out.String()
}

// lineWindow bounds the text searched on each side of a trigger in a very
// long line.
const lineWindow = 4096

// replaceIn replaces the plausible matches of r inside s[from:to].
func (r *secretRule) replaceIn(out *rewriter, from, to int) {
	if r.find != nil {
		for _, span := range r.find(out.s[from:to]) {
			out.replace(from+span[0], from+span[1], "[REDACTED:"+r.kind+"]")
		}
		return
	}
	for _, m := range r.re.FindAllStringSubmatchIndex(out.s[from:to], -1) {
		start, end := from+m[2*r.group], from+m[2*r.group+1]
		if m[2*r.group] < 0 || (r.plausible != nil && !r.plausible(out.s[start:end])) {
			continue
		}
		out.replace(start, end, "[REDACTED:"+r.kind+"]")
	}
}

// rewriter builds a copy of s with some spans replaced, allocating only
// when the first replacement is made.
type rewriter struct {
	s          string
	tokensOnly bool // replace only spans tokenOnly accepts
	dryRun     bool // only note (dirty) that something would be replaced
	b          strings.Builder
	copied     int // s[:copied] has been written to b
	dirty      bool
}

// replace writes s up to start, then repl, and skips s[start:end]. Spans
// must come in increasing order.
func (w *rewriter) replace(start, end int, repl string) {
	if w.tokensOnly && !tokenOnly(w.s[start:end]) {
		return
	}
	if w.dryRun {
		w.dirty = true
		return
	}
	redactions.Add(1)
	if !w.dirty {
		w.b.Grow(len(w.s))
		w.dirty = true
	}
	w.b.WriteString(w.s[w.copied:start])
	w.b.WriteString(repl)
	w.copied = end
}

// String returns the rewritten text (s itself when nothing was replaced).
func (w *rewriter) String() string {
	if !w.dirty {
		return w.s
	}
	w.b.WriteString(w.s[w.copied:])
	return w.b.String()
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// findURLPasswords finds PASSWORD in scheme://user:PASSWORD@host, the way
// the regexp `\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]+:([^\s@/]+)@` would.
func findURLPasswords(line string) [][2]int {
	var spans [][2]int
	for off := 0; ; {
		i := strings.Index(line[off:], "://")
		if i < 0 {
			return spans
		}
		i += off
		off = i + 3
		if !hasScheme(line[:i]) {
			continue
		}
		user := spanOf(line, off, ":/@")
		if user == off || user >= len(line) || line[user] != ':' {
			continue
		}
		pass := spanOf(line, user+1, "@/")
		if pass == user+1 || pass >= len(line) || line[pass] != '@' {
			continue
		}
		spans = append(spans, [2]int{user + 1, pass})
		off = pass
	}
}

// hasScheme reports whether s ends in a URL scheme that starts a word.
func hasScheme(s string) bool {
	i := len(s)
	for i > 0 && isSchemeByte(s[i-1]) {
		i--
	}
	for i < len(s) && !isLetter(s[i]) { // the scheme starts with a letter
		i++
	}
	return i < len(s) && (i == 0 || !isWordByte(s[i-1]))
}

// spanOf returns the end of the run starting at i of bytes that are neither
// white space nor in stop.
func spanOf(s string, i int, stop string) int {
	for i < len(s) && !strings.ContainsRune(" \t\n\r\f\v", rune(s[i])) && strings.IndexByte(stop, s[i]) < 0 {
		i++
	}
	return i
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isSchemeByte(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}

func isWordByte(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }

package providers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/transcript"
)

// A program's debug log of one run, where it says that it retries a
// failed model request — Claude Code's --debug-file ("API error (attempt
// 1/11): 401 …"), Gemini CLI's GEMINI_DEBUG_LOG_FILE ("Attempt 1 failed
// with status 429. Retrying with backoff…") — in words its TUI draws
// without the status (Claude Code: "API error · Retrying in 2s · attempt
// 3/10") or not at all (Gemini CLI: only its spinner). It is read with
// the session's record, as its ModelError events, so the GUI hears of a
// retry at once and a refused key ends the turn at once. The file is
// yume-cli's, one per run, and removed when the record is closed.

// debugLogPath is where the run of l keeps its debug log: yume-cli's
// cache, a file per run; "" when there is no cache directory or the run
// has no start time.
func debugLogPath(name string, l Launch) string {
	dir := CacheDir()
	if dir == "" || l.Started.IsZero() {
		return ""
	}
	return filepath.Join(dir, "debug", fmt.Sprintf("%s-%s-%d.log", name, safeName(l.Session), l.Started.UnixNano()))
}

// safeName keeps what a file name may hold of s.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return -1
	}, s)
}

// prepareDebugLog makes the directory of path (the program creates the
// file); "" where it cannot, so the program is not told of a log it
// could not write.
func prepareDebugLog(path string) string {
	if path == "" || os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return ""
	}
	return path
}

// withDebugLog is a session record read together with the run's debug log.
type withDebugLog struct {
	transcript.Source
	debug *transcript.Tail
	path  string
}

// addDebugLog reads rec and, where path is set, the debug log at path
// with parse.
func addDebugLog(rec transcript.Source, path string, parse transcript.Parser) transcript.Source {
	if path == "" {
		return rec
	}
	return &withDebugLog{Source: rec, path: path, debug: transcript.NewTail(func() (string, bool) { return path, true }, parse)}
}

// Poll implements transcript.Source: the record's events, then the debug
// log's (its errors; a failed read of it is no failure of the record).
func (w *withDebugLog) Poll() ([]transcript.Event, error) {
	evs, err := w.Source.Poll()
	more, _ := w.debug.Poll() // Best effort: the debug log only adds words.
	return append(evs, more...), err
}

// Unwrap implements transcript.Wrapper.
func (w *withDebugLog) Unwrap() transcript.Source { return w.Source }

// LogsRetries says the record tells each retry of a failed model request
// with its status: the driver holds the screen's words of a retry that
// names none a moment for these.
func (w *withDebugLog) LogsRetries() bool { return true }

// Close closes the record and removes the run's debug log.
func (w *withDebugLog) Close() error {
	var err error
	if c, ok := w.Source.(io.Closer); ok {
		err = c.Close()
	}
	err = errors.Join(err, w.debug.Close())
	if rerr := os.Remove(w.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		err = errors.Join(err, rerr)
	}
	return err
}

// claudeDebugLine is Claude Code's debug log line of a failed request:
// "2026-11-26T14:50:18.469Z [ERROR] API error (attempt 1/4): 401 401
// {"error":{"message":"…","type":"authentication_error"},"type":"error"}".
var claudeDebugLine = regexp.MustCompile(`^\S+ \[ERROR\] API error \(attempt (\d+)/(\d+)\): (.*)$`)

// parseClaudeDebug reads a failed request from Claude Code's debug log:
// its attempt, the status and the service's message.
func parseClaudeDebug(line []byte) []transcript.Event {
	m := claudeDebugLine.FindSubmatch(line)
	if m == nil {
		return nil
	}
	text := fmt.Sprintf("API error (attempt %s/%s): %s", m[1], m[2], apiErrorWords(string(m[3])))
	return []transcript.Event{{Kind: transcript.ModelError, Text: text}}
}

// geminiDebugLine is Gemini CLI's debug log line of a failed request:
// "[2026-11-26T14:57:36.626Z] [WARN] Attempt 1 failed with status 429.
// Retrying with backoff... _ApiError: {"error":{"code":429,…}}".
var geminiDebugLine = regexp.MustCompile(`^\[\S+\] \[(?:WARN|ERROR)\] (Attempt \d+ failed[^.]*\.(?: Retrying[^.]*\.\.\.)?)(.*)$`)

// parseGeminiDebug reads a retried request from Gemini CLI's debug log.
func parseGeminiDebug(line []byte) []transcript.Event {
	m := geminiDebugLine.FindSubmatch(line)
	if m == nil {
		return nil
	}
	text := string(m[1])
	if msg := jsonErrorMessage(string(m[2])); msg != "" {
		text += " (" + msg + ")"
	}
	return []transcript.Event{{Kind: transcript.ModelError, Text: text}}
}

// apiErrorWords is "401 401 {json}" (status, then the SDK's message with
// the body) as "HTTP 401 authentication_error: the service's message".
func apiErrorWords(s string) string {
	status, rest, _ := strings.Cut(strings.TrimSpace(s), " ")
	if _, err := strconv.Atoi(status); err != nil {
		return s
	}
	kind, msg := "", jsonErrorMessage(rest)
	if i := strings.IndexByte(rest, '{'); i >= 0 {
		var body struct {
			Error struct {
				Type string `json:"type"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(rest[i:]), &body) == nil {
			kind = body.Error.Type
		}
	}
	if msg == "" {
		msg = strings.TrimSpace(strings.TrimPrefix(rest, status))
	}
	words := "HTTP " + status
	if kind != "" {
		words += " " + kind
	}
	if msg != "" {
		words += ": " + msg
	}
	return words
}

// jsonErrorMessage is error.message of the JSON object in s; "" when none.
func jsonErrorMessage(s string) string {
	i := strings.IndexByte(s, '{')
	if i < 0 {
		return ""
	}
	var body struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	dec := json.NewDecoder(strings.NewReader(s[i:]))
	if dec.Decode(&body) != nil {
		return ""
	}
	return body.Error.Message
}

package providers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"

	"github.com/yume-cli/yume-cli/transcript"
)

// A program's debug log of one run, where it says that it retries a
// failed model request — Claude Code's --debug-file ("API error (attempt
// 1/11): 401 …"), Gemini CLI's GEMINI_DEBUG_LOG_FILE ("Attempt 1 failed
// with status 429. Retrying with backoff…") — in words its TUI draws
// without the status (Claude Code: "API error · Retrying in 2s · attempt
// 3/10") or not at all (Gemini CLI: only its spinner). It is read with
// the session's transcript, as its ModelError events, so the GUI hears of a
// retry at once and a refused key ends the turn at once. The file is
// yume-cli's, one per run, and removed when the transcript is closed.

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

// DebugLog is how a program is made to keep a debug log of a run where
// it tells its retries, for the structured modes (the TUIs set theirs
// up in their own Args and Env, and read it with their transcript).
type DebugLog struct {
	// Env has the program write its debug log (path: Path's, for a
	// program that takes one).
	Env func(path string) []string
	// Path is where the run writes it, once its session is known ("":
	// not yet); owned says the file is yume-cli's, removed after.
	Path func(l Launch) (path string, owned bool)
	// Parse reads its lines: the retries, as ModelError events.
	Parse func(l Launch) transcript.Parser
}

// Open follows the debug log of the run l: nil while its path is not
// known. Close the source to remove an owned file.
func (d *DebugLog) Open(l Launch) transcript.Source {
	path, owned := d.Path(l)
	if path == "" {
		return nil
	}
	return &debugFile{Tail: transcript.NewTail(func() (string, bool) { return path, true }, d.Parse(l)), path: path, owned: owned}
}

// Found is a DebugLog.Path for a program that names its log file itself:
// the log is found once it is there (find: its path, or ""), and kept.
func Found(find func(l Launch) string) func(l Launch) (string, bool) {
	return func(l Launch) (string, bool) { return find(l), false }
}

// debugFile is a run's debug log, removed when closed if yume-cli's.
type debugFile struct {
	*transcript.Tail
	path  string
	owned bool
}

// Close implements io.Closer.
func (f *debugFile) Close() error {
	err := f.Tail.Close()
	if !f.owned || f.path == "" {
		return err
	}
	if rerr := os.Remove(f.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		err = errors.Join(err, rerr)
	}
	return err
}

// withDebugLog is a transcript read together with the run's debug log.
type withDebugLog struct {
	transcript.Source
	debug interface {
		transcript.Source
		io.Closer
	}
}

// addDebugLog reads src and, where path is set, the debug log at path
// with parse (owned: yume-cli's file, removed with the transcript).
func addDebugLog(src transcript.Source, path string, parse transcript.Parser, owned ...bool) transcript.Source {
	if path == "" {
		return src
	}
	own := len(owned) == 0 || owned[0]
	return &withDebugLog{Source: src, debug: &debugFile{Tail: transcript.NewTail(func() (string, bool) { return path, true }, parse), path: path, owned: own}}
}

// addFoundLog reads src and the program's own log, found by find once it
// is there (kept: the program's file).
func addFoundLog(src transcript.Source, find func() string, parse transcript.Parser) transcript.Source {
	tail := transcript.NewTail(func() (string, bool) {
		p := find()
		return p, p != ""
	}, parse)
	return &withDebugLog{Source: src, debug: tail}
}

// addSharedLog reads src and a log every session of the program shares,
// from its end as it is now (transcript.Tail.SkipExisting), for the
// events of the session session() names.
func addSharedLog(src transcript.Source, path string, parse transcript.Parser, session func() string) transcript.Source {
	tail := transcript.NewTail(func() (string, bool) { return path, true }, parse).SkipExisting()
	return &withDebugLog{Source: src, debug: &bySession{Source: tail, session: session}}
}

// Poll implements transcript.Source: the transcript's events, then the debug
// log's (its errors; a failed read of it is no failure of the transcript).
func (w *withDebugLog) Poll() ([]transcript.Event, error) {
	evs, err := w.Source.Poll()
	more, _ := w.debug.Poll() // Best effort: the debug log only adds words.
	return append(evs, more...), err
}

// Unwrap implements transcript.Wrapper.
func (w *withDebugLog) Unwrap() transcript.Source { return w.Source }

// LogsRetries says the transcript tells each retry of a failed model request
// with its status: the driver holds the screen's words of a retry that
// names none a moment for these.
func (w *withDebugLog) LogsRetries() bool { return true }

// Close closes the transcript and the debug log (removed if yume-cli's).
func (w *withDebugLog) Close() error {
	var err error
	if c, ok := w.Source.(io.Closer); ok {
		err = c.Close()
	}
	return errors.Join(err, w.debug.Close())
}

// claudeDebugLine is Claude Code's debug log line of a failed request:
// "2026-11-26T14:50:18.469Z [ERROR] API error (attempt 1/4): 401 401
// {"error":{"message":"…","type":"authentication_error"},"type":"error"}".
var claudeDebugLine = lazyre.New(`^\S+ \[ERROR\] API error \(attempt (\d+)/(\d+)\): (.*)$`)

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
var geminiDebugLine = lazyre.New(`^\[\S+\] \[(?:WARN|ERROR)\] (Attempt \d+ failed[^.]*\.(?: Retrying[^.]*\.\.\.)?)(.*)$`)

// qwenDebugLine is Qwen Code's debug log line of a failed request
// ("2026-11-26T15:20:01.123Z [WARN] [RETRY] Attempt 1 failed with status
// 429. Retrying with backoff in 5s... {…}"; ERROR for a 5xx).
var qwenDebugLine = lazyre.New(`^(\S+) \[(?:WARN|ERROR)\] \[RETRY\](?: \[[^\]]*\])? (Attempt \d+ failed[^.]*\.(?: Retrying[^.]*\.\.\.)?)(.*)$`)

// qwenDebug reads Qwen Code's debug log of the session (QWEN_DEBUG_LOG_FILE
// on: <its runtime directory>/debug/<session>.txt), its lines before the
// run (a resumed session's) left out.
func qwenDebug(l Launch) transcript.Parser {
	return func(line []byte) []transcript.Event {
		m := qwenDebugLine.FindSubmatch(line)
		if m == nil || !l.Started.IsZero() && stamp(string(m[1])).Before(l.Started) {
			return nil
		}
		text := string(m[2])
		if msg := jsonErrorMessage(string(m[3])); msg != "" {
			text += " (" + msg + ")"
		}
		return []transcript.Event{{Kind: transcript.ModelError, Text: text}}
	}
}

// qwenDebugPath is Qwen Code's debug log of the session of l ("" while
// it is not known).
func qwenDebugPath(l Launch) (string, bool) {
	if l.Session == "" || safeName(l.Session) != l.Session {
		return "", false
	}
	dir := l.Getenv("QWEN_RUNTIME_DIR")
	if dir == "" {
		dir = filepath.Join(l.Getenv("HOME"), ".qwen")
	}
	return filepath.Join(dir, "debug", l.Session+".txt"), false
}

// qwenDebugEnv turns Qwen Code's debug log on.
func qwenDebugEnv(string) []string { return []string{"QWEN_DEBUG_LOG_FILE=1"} }

// geminiDebugLog is Gemini CLI's debug log for the structured modes.
var geminiDebugLog = &DebugLog{
	Env: func(path string) []string { return []string{"GEMINI_DEBUG_LOG_FILE=" + path} },
	Path: func(l Launch) (string, bool) {
		return prepareDebugLog(debugLogPath("gemini", Launch{Started: l.Started})), true
	},
	Parse: func(Launch) transcript.Parser { return parseGeminiDebug },
}

// qwenDebugLog is Qwen Code's debug log for the structured modes.
var qwenDebugLog = &DebugLog{Env: qwenDebugEnv, Path: qwenDebugPath, Parse: qwenDebug}

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

// copilotLogLine is Copilot CLI's process log line of a failed model
// request: "2026-11-26T15:07:37.487Z [WARNING] [rust:model_events::producer]
// Model provider request failed {"stage":"inference",…,"http_status":401,…}".
var copilotLogLine = lazyre.New(`^(\S+) \[(?:WARNING|ERROR)\] \[[^\]]*model_events[^\]]*\] (Model provider request failed)\s*(\{.*\})?\s*$`)

// copilotLog reads Copilot CLI's process log of a run
// (<COPILOT_HOME or ~/.copilot>/logs/process-<start ms>-<pid>.log): each
// failed model request with its status, which its screen and ACP tell
// only as "Request failed due to a transient API error. Retrying..." or
// not at all (429), before it gives up a minute later.
func copilotLog(l Launch) transcript.Parser {
	return func(line []byte) []transcript.Event {
		m := copilotLogLine.FindSubmatch(line)
		if m == nil || !l.Started.IsZero() && stamp(string(m[1])).Before(l.Started) {
			return nil
		}
		var f struct {
			Status int    `json:"http_status"`
			Kind   string `json:"failure_kind"`
		}
		_ = json.Unmarshal(m[3], &f) // No fields: the words alone.
		text := string(m[2])
		if f.Status != 0 {
			text += fmt.Sprintf(": HTTP %d", f.Status)
		}
		if f.Kind != "" {
			text += " (" + f.Kind + ")"
		}
		return []transcript.Event{{Kind: transcript.ModelError, Text: text + "; retrying"}}
	}
}

// copilotLogPath is the process log of the run of l: the newest one
// started at or after it; "" until there is one.
func copilotLogPath(l Launch) string {
	home := l.Getenv("COPILOT_HOME")
	if home == "" {
		home = filepath.Join(l.Getenv("HOME"), ".copilot")
	}
	paths, _ := filepath.Glob(filepath.Join(home, "logs", "process-*.log"))
	best, bestMS := "", int64(0)
	for _, p := range paths {
		f := strings.Split(strings.TrimSuffix(filepath.Base(p), ".log"), "-")
		if len(f) < 2 {
			continue
		}
		ms, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil || !l.Started.IsZero() && ms < l.Started.UnixMilli()-1000 || ms <= bestMS {
			continue
		}
		best, bestMS = p, ms
	}
	return best
}

// copilotDebugLog is Copilot CLI's process log, for the structured modes.
var copilotDebugLog = &DebugLog{Env: func(string) []string { return nil }, Path: Found(copilotLogPath), Parse: copilotLog}

// openCodeLogLine is opencode's (and Kilo's) log line of a failed model
// request, in logfmt: `timestamp=… level=ERROR … message="stream error" …
// session.id=ses_… … error.error="AI_APICallError: fake error 429"`.
var openCodeLogLine = lazyre.New(`^timestamp=(\S+) level=(?:ERROR|WARN)\b.*\bmessage="stream error".*\bsession\.id=(\S+).*\berror\.error="([^"]*)"`)

// openCodeLogErrors reads the program's shared log
// (<XDG_DATA_HOME>/NAME/log/opencode.log) for the failed requests at or
// after the run's start, each with its session (bySession keeps the
// run's): its TUI tells a retried 429 or 500 late or not at all.
func openCodeLogErrors(l Launch) transcript.Parser {
	return func(line []byte) []transcript.Event {
		m := openCodeLogLine.FindSubmatch(line)
		if m == nil || !l.Started.IsZero() && stamp(string(m[1])).Before(l.Started) {
			return nil
		}
		return []transcript.Event{{Kind: transcript.ModelError, Session: string(m[2]), Text: "stream error: " + string(m[3]) + "; retrying"}}
	}
}

// bySession is a log every session shares, read for the events of the
// session session() names: those of another are dropped; those read
// before the session is known wait until it is (at most maxWaiting).
type bySession struct {
	transcript.Source
	session func() string
	waiting []transcript.Event
}

const maxWaiting = 64

// Poll implements transcript.Source.
func (b *bySession) Poll() ([]transcript.Event, error) {
	evs, err := b.Source.Poll()
	b.waiting = append(b.waiting, evs...)
	s := b.session()
	if s == "" {
		if n := len(b.waiting); n > maxWaiting {
			b.waiting = b.waiting[n-maxWaiting:]
		}
		return nil, err
	}
	var out []transcript.Event
	for _, e := range b.waiting {
		if e.Session == s {
			e.Session = ""
			out = append(out, e)
		}
	}
	b.waiting = nil
	return out, err
}

// Close implements io.Closer.
func (b *bySession) Close() error {
	if c, ok := b.Source.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// openCodeLogPath is the shared log of opencode or Kilo (name).
func openCodeLogPath(name string, l Launch) string {
	data := l.Getenv("XDG_DATA_HOME")
	if data == "" {
		data = filepath.Join(l.Getenv("HOME"), ".local", "share")
	}
	return filepath.Join(data, name, "log", "opencode.log")
}

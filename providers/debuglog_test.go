package providers

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/modelerror"
	"github.com/yume-cli/yume-cli/transcript"
)

// TestDebugLogErrors: the lines claude 2.1.332 and gemini 0.61.0 wrote to
// their debug logs while they retried the fake model's errors are model
// errors in their words, with the attempt and the status (which Claude
// Code's screen leaves out, and Gemini CLI's screen does not show at
// all), classed as the status says; their other lines are nothing.
func TestDebugLogErrors(t *testing.T) {
	for _, c := range []struct {
		parse  transcript.Parser
		line   string
		text   string
		class  modelerror.Class
		status int
	}{
		{parseClaudeDebug, `2026-11-26T14:50:18.469Z [ERROR] API error (attempt 1/4): 401 401 {"error":{"message":"fake error 401 invalid x-api-key","type":"authentication_error"},"type":"error"}`,
			"API error (attempt 1/4): HTTP 401 authentication_error: fake error 401 invalid x-api-key", modelerror.Auth, 401},
		{parseClaudeDebug, `2026-11-26T14:57:57.754Z [ERROR] API error (attempt 1/3): 429 429 {"error":{"message":"fake error 429","type":"rate_limit_error"},"type":"error"}`,
			"API error (attempt 1/3): HTTP 429 rate_limit_error: fake error 429", modelerror.RateLimit, 429},
		{parseClaudeDebug, `2026-11-26T14:58:00.153Z [ERROR] API error (attempt 1/3): 500 500 {"error":{"message":"fake error 500","type":"api_error"},"type":"error"}`,
			"API error (attempt 1/3): HTTP 500 api_error: fake error 500", modelerror.Server, 500},
		{parseGeminiDebug, `[2026-11-26T14:57:36.626Z] [WARN] Attempt 1 failed with status 429. Retrying with backoff... _ApiError: {"error":{"code":429,"message":"fake error 429 quota exceeded","status":"RESOURCE_EXHAUSTED"}}`,
			"Attempt 1 failed with status 429. Retrying with backoff... (fake error 429 quota exceeded)", modelerror.RateLimit, 429},
		{parseGeminiDebug, `[2026-11-26T14:57:42.917Z] [WARN] Attempt 2 failed with status 500. Retrying with backoff... _ApiError: {"error":{"code":500,"message":"fake error 500","status":"INTERNAL"}}`,
			"Attempt 2 failed with status 500. Retrying with backoff... (fake error 500)", modelerror.Server, 500},
	} {
		evs := c.parse([]byte(c.line))
		if len(evs) != 1 || evs[0].Kind != transcript.ModelError || evs[0].Text != c.text {
			t.Errorf("%.60s: events %+v, want a model error %q", c.line, evs, c.text)
			continue
		}
		e := modelerror.Classify(evs[0].Text)
		if e == nil || e.Class != c.class || e.Status != c.status || !e.Retrying {
			t.Errorf("%q: classified %+v, want class %s status %d retrying", evs[0].Text, e, c.class, c.status)
		}
	}
	for _, line := range []string{
		`2026-11-26T14:50:18.404Z [DEBUG] [API REQUEST] /v1/messages source=sdk`,
		`2026-11-26T14:50:18.014Z [WARN] settings: no lock on /x/settings.json (absent); writing without it`,
		`  status: 429`,
		`    at throwErrorIfNotOK (file:///x/bundle.js:1:2)`,
		`[2026-11-26T14:57:30.000Z] [LOG] Loaded cached credentials.`,
	} {
		if evs := append(parseClaudeDebug([]byte(line)), parseGeminiDebug([]byte(line))...); len(evs) != 0 {
			t.Errorf("%q: events %+v, want none", line, evs)
		}
	}
}

// TestDebugLogFile: the run's debug log is read with its transcript, each
// line once, and removed with it; a run without a cache directory keeps
// none.
func TestDebugLogFile(t *testing.T) {
	t.Setenv("YUME_HOME", t.TempDir())
	l := Launch{Session: "0d1e/../x", Started: time.Unix(1795000000, 5)}
	path := prepareDebugLog(debugLogPath("gemini", l))
	if path == "" || filepath.Dir(filepath.Dir(path)) != CacheDir() || filepath.Base(path) != "gemini-0d1ex-1795000000000000005.log" {
		t.Fatalf("debug log %q, want a file of this run in %s/debug", path, CacheDir())
	}
	src := addDebugLog(&emptyTranscript{}, path, parseGeminiDebug)
	line := "[2026-11-26T14:57:36.626Z] [WARN] Attempt 1 failed with status 429. Retrying with backoff... _ApiError: {}\n"
	if err := os.WriteFile(path, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{1, 0} {
		evs, err := src.Poll()
		if err != nil || len(evs) != want {
			t.Errorf("read %d: %+v, %v; want %d events", i, evs, err, want)
		}
	}
	if _, ok := transcript.As[*emptyTranscript](src); !ok {
		t.Error("the transcript under the debug log is hidden")
	}
	if err := src.(interface{ Close() error }).Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the debug log is left behind: %v", err)
	}
	if p := debugLogPath("gemini", Launch{}); p != "" {
		t.Errorf("a run with no start time gets debug log %q", p)
	}
	if got := addDebugLog(&emptyTranscript{}, "", parseGeminiDebug); got == nil {
		t.Error("no transcript")
	} else if _, wrapped := got.(*withDebugLog); wrapped {
		t.Error("no debug log, yet the transcript is wrapped")
	}
}

type emptyTranscript struct{}

func (*emptyTranscript) Poll() ([]transcript.Event, error) { return nil, nil }
func (*emptyTranscript) Path() string                      { return "empty" }

// TestQwenDebugLog: Qwen Code 0.24.4's debug log (QWEN_DEBUG_LOG_FILE=1)
// of a 429 it retried: each attempt a model error with its status; a
// line from before the run (a resumed session's file) is not this run's.
func TestQwenDebugLog(t *testing.T) {
	l := Launch{Session: "b402f7db-e352-4663-a4c9-2dc29902760a", Started: time.Date(2026, 11, 26, 15, 22, 28, 0, time.UTC),
		Getenv: func(k string) string { return map[string]string{"HOME": "/home/u"}[k] }}
	parse := qwenDebug(l)
	evs := parse([]byte(`2026-11-26T15:22:28.668Z [WARN] [RETRY] Attempt 1 failed with status 429. Retrying with backoff in 2s... {`))
	if len(evs) != 1 || evs[0].Text != "Attempt 1 failed with status 429. Retrying with backoff in 2s..." {
		t.Fatalf("events %+v", evs)
	}
	if e := modelerror.Classify(evs[0].Text); e == nil || e.Status != 429 || e.Class != modelerror.RateLimit || !e.Retrying {
		t.Errorf("classified %+v", e)
	}
	if old := parse([]byte(`2026-11-26T15:00:00.000Z [WARN] [RETRY] Attempt 4 failed with status 500. Retrying with backoff in 9s... {`)); len(old) != 0 {
		t.Errorf("an earlier run's retry: %+v", old)
	}
	if other := parse([]byte(`2026-11-26T15:22:29.000Z [DEBUG] [CONFIG] loaded settings`)); len(other) != 0 {
		t.Errorf("a debug line read as a retry: %+v", other)
	}
	if p, owned := qwenDebugPath(l); p != "/home/u/.qwen/debug/b402f7db-e352-4663-a4c9-2dc29902760a.txt" || owned {
		t.Errorf("path %q owned %v: want Qwen's own file, kept", p, owned)
	}
	if p, _ := qwenDebugPath(Launch{Session: "../x"}); p != "" {
		t.Errorf("a session id that is no file name gives path %q", p)
	}
}

// TestProgramLogErrors: Copilot CLI 1.0.102's process log and opencode
// 1.18.34's shared log, as they wrote a failed request to the fake model:
// the status (Copilot's screen and ACP have none, or none before it gives
// up), of this run only — and for opencode, whose log every session
// shares, of this session only.
func TestProgramLogErrors(t *testing.T) {
	started := time.Date(2026, 11, 26, 15, 7, 37, 0, time.UTC)
	cp := copilotLog(Launch{Started: started})
	evs := cp([]byte(`2026-11-26T15:07:37.487Z [WARNING] [rust:model_events::producer] Model provider request failed {"stage":"inference","api_endpoint":"/chat/completions","http_status":401,"failure_kind":"http_error"}`))
	if len(evs) != 1 || evs[0].Text != "Model provider request failed: HTTP 401 (http_error); retrying" {
		t.Errorf("copilot: %+v", evs)
	} else if e := modelerror.Classify(evs[0].Text); e == nil || e.Status != 401 || !e.Final() {
		t.Errorf("copilot's 401 classified %+v", e)
	}
	for _, line := range []string{
		`2026-11-26T15:07:30.000Z [WARNING] [rust:model_events::producer] Model provider request failed {"http_status":429}`,
		`2026-11-26T15:07:37.308Z [WARNING] [rust:events_engine::host_delivery] event was not delivered to its registered session host {"error":"GenericFailure"}`,
	} {
		if evs := cp([]byte(line)); len(evs) != 0 {
			t.Errorf("copilot %q: %+v", line, evs)
		}
	}
	oc := openCodeLogErrors(Launch{Started: started})
	line := `timestamp=2026-11-26T15:25:07.308Z level=ERROR run=89f244c1 message="stream error" providerID=fake modelID=m session.id=ses_de78a3651ffezhuzM6F2Jschod small=false agent=build mode=primary error.error="AI_APICallError: fake error 429"`
	evs = oc([]byte(line))
	if len(evs) != 1 || evs[0].Text != "stream error: AI_APICallError: fake error 429; retrying" || evs[0].Session != "ses_de78a3651ffezhuzM6F2Jschod" {
		t.Errorf("opencode: %+v", evs)
	}
	// The shared log keeps this session's: one read before the session
	// is known waits for it; another session's is dropped.
	session := ""
	shared := &bySession{Source: &batches{[][]transcript.Event{
		{{Kind: transcript.ModelError, Session: "ses_mine", Text: "early"}, {Kind: transcript.ModelError, Session: "ses_other", Text: "theirs"}},
		{{Kind: transcript.ModelError, Session: "ses_mine", Text: "later"}},
	}}, session: func() string { return session }}
	if got, _ := shared.Poll(); len(got) != 0 {
		t.Errorf("before the session is known: %+v", got)
	}
	session = "ses_mine"
	got, _ := shared.Poll()
	if len(got) != 2 || got[0].Text != "early" || got[1].Text != "later" {
		t.Errorf("the session's errors %+v, want early and later", got)
	}
}

// batches hands out its events one batch per Poll.
type batches struct{ b [][]transcript.Event }

func (s *batches) Poll() ([]transcript.Event, error) {
	if len(s.b) == 0 {
		return nil, nil
	}
	out := s.b[0]
	s.b = s.b[1:]
	return out, nil
}

func (s *batches) Path() string { return "batches" }

// TestCopilotLogPath: the run's process log is the newest one started at
// or after the run; an earlier run's is not.
func TestCopilotLogPath(t *testing.T) {
	home := t.TempDir()
	started := time.UnixMilli(1795705657000)
	for _, name := range []string{"process-1795705600000-10.log", "process-1795705657279-3338.log"} {
		if err := os.MkdirAll(filepath.Join(home, "logs"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, "logs", name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	l := Launch{Started: started, Getenv: func(k string) string { return map[string]string{"COPILOT_HOME": home}[k] }}
	if got := copilotLogPath(l); filepath.Base(got) != "process-1795705657279-3338.log" {
		t.Errorf("path %q", got)
	}
	l.Started = time.UnixMilli(1795705700000)
	if got := copilotLogPath(l); got != "" {
		t.Errorf("a later run finds %q", got)
	}
}

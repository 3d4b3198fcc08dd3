package replay

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/transcript"
)

// A provider's transcript in a recording. A live PTY turn takes a call's
// exact input, its whole output and the turn's end from the provider's
// own log of the session (driver.Config.Transcript); a screen may never
// show them (Claude Code folds output into "Ran 1 shell command", Copilot
// until Ctrl-O, Gemini draws no description). So `start --record` also
// records what the driver read from that log, as markers ("m" events, the
// only kind asciicast players accept besides output, input and resizes),
// each at the time the driver's read of the log began:
//
//	session log: start {"after_run":…,"ends_turns":…,"unasked_by":…,"unasked_after_ms":…,"prompt":…}
//	session log: found
//	session log: event {"kind":"tool_result","id":…,"output":…,"is_error":…}
//
// A replay of such a recording reads the log from them on its own clock
// (driver.Script.Log), so its tool_uses and tool_results are the live
// run's. A recording without them (a person's, `yume-cli record`) has only
// the screen.
//
// The markers' label is older than the word transcript, and stays: every
// recording made with `start --record` holds it, so that older and newer
// yume-cli read each other's casts.
const transcriptMarker = "session log: "

// questionMarker begins the marker the live driver writes where it asks a
// question ("question 1: touch seen.txt && ls").
const questionMarker = "question "

// LogConfig is how the live driver used the transcript.
type LogConfig struct {
	AfterRun     bool   `json:"after_run,omitempty"`
	EndsTurns    bool   `json:"ends_turns,omitempty"`
	UnaskedBy    string `json:"unasked_by,omitempty"`
	UnaskedAfter int64  `json:"unasked_after_ms,omitempty"`
	// Prompt is the turn's prompt as yume-cli was given it (redacted).
	Prompt string `json:"prompt,omitempty"`
}

// LogStartMarker is the label of the marker that says the recording holds
// the transcript, and how the driver used it.
func LogStartMarker(c LogConfig) string {
	b, _ := json.Marshal(c) // Plain fields: it cannot fail.
	return transcriptMarker + "start " + string(b)
}

// LogFoundMarker is the label of the marker where the transcript was
// first found.
func LogFoundMarker() string { return transcriptMarker + "found" }

// wireEvent is a transcript.Event in a marker.
type wireEvent struct {
	Kind    string            `json:"kind"`
	ID      string            `json:"id,omitempty"`
	Name    string            `json:"name,omitempty"`
	Input   map[string]any    `json:"input,omitempty"`
	Also    []transcript.Call `json:"also,omitempty"`
	Output  string            `json:"output,omitempty"`
	IsError bool              `json:"is_error,omitempty"`
	Text    string            `json:"text,omitempty"`
	Session string            `json:"session,omitempty"`
	// Usage is a tokens event's (its time is the marker's: the replay
	// is one run).
	Usage *transcript.Usage `json:"usage,omitempty"`
}

// LogEventMarker is the label of the marker holding e, its text passed
// through redact (nil: kept as it is).
func LogEventMarker(e transcript.Event, redact func(string) string) string {
	if redact == nil {
		redact = func(s string) string { return s }
	}
	w := wireEvent{Kind: e.Kind.String(), ID: e.ID, Name: e.Name, Input: redactMap(e.Input, redact),
		Output: redact(e.Output), IsError: e.IsError, Text: redact(e.Text), Session: e.Session, Usage: e.Usage}
	for _, a := range e.Also {
		w.Also = append(w.Also, transcript.Call{Name: a.Name, Input: redactMap(a.Input, redact)})
	}
	b, err := json.Marshal(w)
	if err != nil { // an input no JSON holds: the call's name at least
		b, _ = json.Marshal(wireEvent{Kind: w.Kind, ID: w.ID, Name: w.Name})
	}
	return transcriptMarker + "event " + string(b)
}

// redactMap is m with every string in it passed through redact.
func redactMap(m map[string]any, redact func(string) string) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = redactValue(v, redact)
	}
	return out
}

func redactValue(v any, redact func(string) string) any {
	switch v := v.(type) {
	case string:
		return redact(v)
	case map[string]any:
		return redactMap(v, redact)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = redactValue(x, redact)
		}
		return out
	}
	return v
}

// kindNamed is the Kind whose String is name; 0 when none.
func kindNamed(name string) transcript.Kind {
	for k := transcript.Text; k.String() != "unknown"; k++ {
		if k.String() == name {
			return k
		}
	}
	return 0
}

// recordedTranscript reads the transcript markers of c: nil when it has none.
// A marker it cannot read is an error: the recording was changed by hand
// or made by a newer yume-cli.
func recordedTranscript(c *recordings.Cast) (*driver.RecordedTranscript, *LogConfig, error) {
	var log *driver.RecordedTranscript
	var cfg *LogConfig
	var asked []time.Duration
	for _, e := range c.Events {
		if e.Code == recordings.CodeMarker && strings.HasPrefix(e.Data, questionMarker) {
			asked = append(asked, e.Time)
		}
		if e.Code != recordings.CodeMarker || !strings.HasPrefix(e.Data, transcriptMarker) {
			continue
		}
		what, arg, _ := strings.Cut(strings.TrimPrefix(e.Data, transcriptMarker), " ")
		if log == nil {
			log = &driver.RecordedTranscript{Found: -1}
		}
		switch what {
		case "start":
			cfg = &LogConfig{}
			if err := json.Unmarshal([]byte(arg), cfg); err != nil {
				return nil, nil, fmt.Errorf("the transcript marker at %.3fs: %w", e.Time.Seconds(), err)
			}
		case "found":
			if log.Found < 0 {
				log.Found = e.Time
			}
		case "event":
			var w wireEvent
			if err := json.Unmarshal([]byte(arg), &w); err != nil {
				return nil, nil, fmt.Errorf("the transcript marker at %.3fs: %w", e.Time.Seconds(), err)
			}
			k := kindNamed(w.Kind)
			if k == 0 {
				return nil, nil, fmt.Errorf("the transcript marker at %.3fs: unknown kind %q", e.Time.Seconds(), w.Kind)
			}
			log.Events = append(log.Events, driver.LoggedEvent{At: e.Time, Event: transcript.Event{Kind: k, ID: w.ID,
				Name: w.Name, Input: w.Input, Also: w.Also, Output: w.Output, IsError: w.IsError, Text: w.Text, Session: w.Session,
				Usage: w.Usage}})
		default:
			return nil, nil, fmt.Errorf("the transcript marker at %.3fs: unknown %q", e.Time.Seconds(), what)
		}
	}
	if log != nil && cfg == nil {
		cfg = &LogConfig{}
	}
	if log != nil {
		log.Asked = asked
	}
	return log, cfg, nil
}

// unaskedAfter is c's UnaskedAfter as a duration.
func (c *LogConfig) unaskedAfter() time.Duration {
	return time.Duration(c.UnaskedAfter) * time.Millisecond
}

package driver

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/transcript"
)

// tracer writes --trace lines: one JSON object per decision, so a user can
// see why a rule fired or did not.
type tracer struct {
	enc *json.Encoder
	d   *driver
	gen uint64 // screen generation last dumped
}

func newTracer(w io.Writer, d *driver) *tracer {
	if w == nil {
		return &tracer{d: d}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &tracer{enc: enc, d: d}
}

type traceLine struct {
	TimeMS  float64           `json:"t_ms"`
	State   string            `json:"state"`
	Typing  bool              `json:"typing,omitempty"` // keys typed, the screen not settled yet
	Event   string            `json:"event"`
	Settled *bool             `json:"settled,omitempty"`
	Rule    string            `json:"rule,omitempty"`
	Fired   *bool             `json:"fired,omitempty"`
	Why     string            `json:"why,omitempty"`
	Groups  map[string]string `json:"groups,omitempty"`
	Rows    []int             `json:"rows,omitempty"`
	Screen  []string          `json:"screen,omitempty"`
	Keys    string            `json:"keys,omitempty"`
	Detail  string            `json:"detail,omitempty"`
}

func (t *tracer) write(l traceLine) {
	if t.enc == nil {
		return
	}
	l.TimeMS = float64(t.d.now().Microseconds()) / 1000
	l.State = t.d.st.String()
	if t.d.t.settling && t.d.st != stateEnded {
		l.Typing = true
	}
	_ = t.enc.Encode(redactTrace(l)) // Best effort: tracing never stops a session.
}

// redactTrace passes every text a trace line carries through the same
// redaction as the stream: trace files get shared in bug reports.
func redactTrace(l traceLine) traceLine {
	l.Why, l.Keys, l.Detail = emit.Redact(l.Why), emit.Redact(l.Keys), emit.Redact(l.Detail)
	if len(l.Groups) > 0 {
		g := make(map[string]string, len(l.Groups))
		for k, v := range l.Groups {
			g[k] = emit.Redact(v)
		}
		l.Groups = g
	}
	if len(l.Screen) > 0 {
		l.Screen = redactLines(l.Screen)
	}
	return l
}

// redactLines redacts a screen with its rows joined, so a secret over
// several rows (a PEM block) is found too, then split again (a redaction
// that spans rows leaves the marker on its first row and fewer rows, so
// the screen is padded back to its height).
func redactLines(rows []string) []string {
	joined := strings.Join(rows, "\n")
	red := emit.Redact(joined)
	if red == joined {
		return rows
	}
	out := strings.Split(red, "\n")
	for len(out) < len(rows) {
		out = append(out, "")
	}
	return out
}

func (t *tracer) evaluate(settled bool, steps []heuristics.TraceStep) {
	if t.enc == nil {
		return
	}
	if g := t.d.screen.Generation(); g != t.gen {
		t.gen = g
		t.write(traceLine{Event: "screen", Screen: t.d.screen.Lines()})
	}
	for _, s := range steps {
		fired := s.Fired
		t.write(traceLine{Event: "rule", Settled: &settled, Rule: s.Rule, Fired: &fired, Why: s.Why, Groups: s.Groups, Rows: s.Rows})
	}
}

func (t *tracer) keys(why, rule string, b []byte) {
	t.write(traceLine{Event: "keys", Why: why, Rule: rule, Keys: strconv.Quote(string(b))})
}

// log traces an event read from the provider's session log.
func (t *tracer) log(e transcript.Event) {
	detail := e.Kind.String()
	switch e.Kind {
	case transcript.ToolCall:
		detail += " " + e.ID + " " + e.Name + " " + describeCall(e.Name, e.Input)
	case transcript.ToolResult:
		detail += fmt.Sprintf(" %s (%d bytes, error %v)", e.ID, len(e.Output), e.IsError)
	case transcript.Text:
		detail += fmt.Sprintf(" (%d bytes)", len(e.Text))
	}
	t.write(traceLine{Event: "log", Detail: detail})
}

// move traces a state change.
func (t *tracer) move(from, to state, why string) {
	t.write(traceLine{Event: "move", Detail: from.String() + " → " + to.String() + ": " + why})
}

func (t *tracer) state(detail string) {
	t.write(traceLine{Event: "state", Detail: detail})
}

func (t *tracer) control(f emit.Control) {
	t.write(traceLine{Event: "control", Detail: strconv.Itoa(int(f.Kind)) + " " + f.ToolUseID + f.RequestID})
}

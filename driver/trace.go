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
// see why a rule fired or did not (docs/trace.md says what each holds).
// On one screen a decision made again (the same rule's same verdict, the
// same state) is written once; its repeats are counted, and a "repeat"
// line says how many and until when once the screen changes or the
// session ends.
type tracer struct {
	enc *json.Encoder
	d   *driver
	gen uint64 // screen generation last dumped
	// seen are this screen's decisions written, by their text; order the
	// order they were first written in.
	seen  map[string]*repeats
	order []string
}

// repeats counts a decision made again on one screen.
type repeats struct {
	line        traceLine
	n           int
	first, last float64
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
	Source  string            `json:"source,omitempty"` // the rule's file:line
	Fired   *bool             `json:"fired,omitempty"`
	Why     string            `json:"why,omitempty"`
	Miss    *traceMiss        `json:"miss,omitempty"`
	Groups  map[string]string `json:"groups,omitempty"`
	Rows    []int             `json:"rows,omitempty"`
	Screen  []string          `json:"screen,omitempty"`
	Keys    string            `json:"keys,omitempty"` // the bytes typed, as they are
	Detail  string            `json:"detail,omitempty"`
	Count   int               `json:"count,omitempty"`    // a repeat: how many times more
	UntilMS float64           `json:"until_ms,omitempty"` // …the last of them
	Of      *traceLine        `json:"of,omitempty"`       // …of this decision
}

// traceMiss is why a rule's pattern found nothing (heuristics.Miss).
type traceMiss struct {
	Part  string               `json:"part"`
	Index int                  `json:"index"`
	Parts int                  `json:"parts"`
	Group string               `json:"group,omitempty"`
	Near  []heuristics.NearRow `json:"near,omitempty"`
}

func (t *tracer) write(l traceLine) { t.writeWith(l, nil) }

// writeWith is write, with more adding to the line only when it is written
// (not for a repeat): what is costly to find out.
func (t *tracer) writeWith(l traceLine, more func(*traceLine)) {
	if t.enc == nil {
		return
	}
	l.TimeMS = float64(t.d.now().Microseconds()) / 1000
	l.State = t.d.st.String()
	if t.d.t.settling && t.d.st != stateEnded {
		l.Typing = true
	}
	if l.Event == "rule" || l.Event == "state" {
		key := l.State + "\x00" + l.Event + "\x00" + l.Rule + "\x00" + l.Why + "\x00" + l.Detail + fmt.Sprint(l.Fired, l.Settled, l.Rows, l.Groups, l.Typing)
		if r := t.seen[key]; r != nil {
			if r.n == 0 {
				r.first = l.TimeMS
			}
			r.n, r.last = r.n+1, l.TimeMS
			return
		}
		if t.seen == nil {
			t.seen = map[string]*repeats{}
		}
		t.seen[key] = &repeats{line: l}
		t.order = append(t.order, key)
	}
	if more != nil {
		more(&l)
	}
	_ = t.enc.Encode(redactTrace(l)) // Best effort: tracing never stops a session.
}

// flush writes how often this screen's decisions were made again, and
// forgets them: a new screen's decisions are new.
func (t *tracer) flush() {
	for _, k := range t.order {
		r := t.seen[k]
		if r.n == 0 {
			continue
		}
		of := r.line
		of.Screen = nil
		_ = t.enc.Encode(redactTrace(traceLine{TimeMS: r.first, State: of.State, Event: "repeat", Count: r.n, UntilMS: r.last, Of: &of}))
	}
	t.seen, t.order = nil, nil
}

// redactTrace passes every text a trace line carries through the same
// redaction as the stream: trace files get shared in bug reports.
func redactTrace(l traceLine) traceLine {
	l.Why, l.Keys, l.Detail = emit.Redact(l.Why), emit.Redact(l.Keys), emit.Redact(l.Detail)
	if l.Miss != nil {
		m := *l.Miss
		m.Near = append([]heuristics.NearRow(nil), m.Near...)
		for i := range m.Near {
			m.Near[i].Text, m.Near[i].Matched = emit.Redact(m.Near[i].Text), emit.Redact(m.Near[i].Matched)
		}
		l.Miss = &m
	}
	if l.Of != nil {
		of := redactTrace(*l.Of)
		l.Of = &of
	}
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
		t.flush()
		t.gen = g
		t.write(traceLine{Event: "screen", Screen: t.d.screen.Lines()})
	}
	var looks *heuristics.Looks // the screen's text, read once for every miss
	for _, s := range steps {
		fired := s.Fired
		l := traceLine{Event: "rule", Settled: &settled, Rule: s.Rule, Fired: &fired, Why: s.Why, Groups: s.Groups, Rows: s.Rows}
		if s.Of != nil {
			l.Source = s.Of.Where()
		}
		var more func(*traceLine)
		if !s.Fired && settled && strings.HasPrefix(s.Why, "no match") {
			of := s.Of
			more = func(l *traceLine) {
				if looks == nil {
					looks = heuristics.NewLooks(t.d.screen)
				}
				l.Miss = t.miss(looks, of)
			}
		}
		t.writeWith(l, more)
	}
}

// miss says why rule r's pattern found nothing on the screen now, once
// per rule and screen (its repeats are counted, not written).
func (t *tracer) miss(looks *heuristics.Looks, r *heuristics.Rule) *traceMiss {
	m := looks.WhyNotIn(r)
	if m == nil {
		return nil
	}
	return &traceMiss{Part: m.Part, Index: m.Index, Parts: m.Parts, Group: m.Group, Near: m.Near}
}

func (t *tracer) keys(why, rule string, b []byte) {
	t.write(traceLine{Event: "keys", Why: why, Rule: rule, Keys: string(b)})
}

// log traces an event read from the provider's transcript.
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

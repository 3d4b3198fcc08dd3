package structured

import (
	"encoding/json"
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/internal/lastwords"
	"github.com/yume-cli/yume-cli/modelerror"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/transcript"
)

// turn holds what every translator tracks while a turn runs.
type turn struct {
	w        *emit.Writer
	provider *providers.Provider
	mode     string
	// initMu guards inited: the init may also be written for a model
	// error the provider tells on stderr before its stream says a word.
	initMu sync.Mutex
	inited bool
	text   strings.Builder // assistant text not yet written
	last   string          // the last assistant text written: the result text
	tools  *toolTracker
	denied map[string]string // tool_use ids denied by us, result not yet written -> message
	ours   map[string]bool   // every tool_use id we denied this session
	// usage is the turn's tokens as the provider reported them so far;
	// nil while it reported none (addUsage, setUsage).
	usage *emit.Usage
	errs  []string        // errors reported during the turn
	note  string          // a notice written right after init (which mode runs)
	shown map[string]bool // commands of the tool_uses written
	// beforeEnd runs once, just before the result is written.
	beforeEnd func() error
	// providerSession is the provider's own session id; onSession hears
	// of it.
	providerSession string
	onSession       func(string)
	// dangers marks dangerous calls in their tool_use (nil: none).
	dangers *permission.Dangers
	// askedBy, while a question's tool_use is written, says who answers
	// it when yume-cli does for nobody (the guard): its approved_by.
	askedBy func(name string, input map[string]any) string
	// watch follows the turn's model errors (modelerror.go; nil: none).
	watch *errorWatch
	// firstRun: see withFirstRun (nil: nothing to add).
	firstRun func(screen string) string
	// words are the provider's last lines, for an error ending a turn it
	// said nothing in (startfail.go); noted: that error weighed firstRun.
	words *lastwords.Tail
	noted bool
}

// setDangers gives the turn the session's dangerous-command set (nil
// keeps the embedded one).
func (t *turn) setDangers(d *permission.Dangers) {
	if d != nil {
		t.dangers = d
	}
}

// setNote sets the notice written after init.
func (t *turn) setNote(s string) { t.note = s }

// onProviderSession sets who hears the provider's session id.
func (t *turn) onProviderSession(f func(string)) { t.onSession = f }

type toolCall struct {
	name  string
	input any
}

func newTurn(w *emit.Writer, provider *providers.Provider, mode string) *turn {
	name := "the agent"
	if provider != nil {
		name = provider.Name
	}
	// A watch that tells the GUI of model errors; Run's own, which also
	// reads stderr and can stop the provider, replaces it.
	return &turn{w: w, provider: provider, mode: mode, tools: newToolTracker(), watch: newErrorWatch(w, name),
		denied: map[string]string{}, ours: map[string]bool{}, shown: map[string]bool{}, dangers: permission.DefaultDangers()}
}

// init writes system/init with the provider's tools and hands the
// provider's own session id, the handle that resumes it, to the session
// (the init's session_id stays yume-cli's own, which Yume resumes with).
func (t *turn) init(sessionID string, tools []string) error {
	t.initMu.Lock()
	if t.inited {
		t.initMu.Unlock()
		t.handle(sessionID) // an init written early knew no session yet
		return nil
	}
	t.inited = true
	t.initMu.Unlock()
	if err := t.w.Init(t.mode, tools); err != nil {
		return err
	}
	if t.note != "" {
		if err := t.w.Notice(t.note); err != nil {
			return err
		}
	}
	t.watch.markReady()
	t.handle(sessionID)
	return nil
}

// handle records the provider's session id. A second, different one (the
// provider compacted or migrated the session) is said in the stream.
func (t *turn) handle(id string) {
	if id == "" || id == t.providerSession {
		return
	}
	changed := t.providerSession != ""
	t.providerSession = id
	if t.onSession != nil {
		t.onSession(id)
	}
	if changed {
		_ = t.w.Notice("the provider's session is now " + id + "; yume-cli's session " + t.w.SessionID() + " continues it") // Best effort: stdout errors surface on the next event.
	}
}

// ensureInit writes init with the provider's default tools if the provider
// has not announced itself yet (a stream that starts with an error).
func (t *turn) ensureInit() error { return t.init("", t.provider.Tools) }

// mapTool turns a provider tool call into Claude's name and input.
func (t *turn) mapTool(name string, args map[string]any) (string, map[string]any) {
	if t.provider.MapTool == nil {
		return name, args
	}
	return t.provider.MapTool(name, args)
}

// maxBuffered bounds the assistant text held back waiting for a message
// boundary; past it the text goes out as a message of its own, so memory
// stays flat on an endless stream of deltas.
const maxBuffered = 64 << 10

// buffer adds streamed assistant text, flushing when it grows too large.
func (t *turn) buffer(s string) error {
	t.text.WriteString(s)
	if t.text.Len() >= maxBuffered {
		return t.flush()
	}
	return nil
}

// flush writes the buffered assistant text as one message.
func (t *turn) flush() error {
	if t.text.Len() == 0 {
		return nil
	}
	s := t.text.String()
	t.text.Reset()
	return t.say(s)
}

// say writes assistant text now.
func (t *turn) say(s string) error {
	if s == "" {
		return nil
	}
	if err := t.ensureInit(); err != nil {
		return err
	}
	t.last = s
	t.watch.progress()
	return t.w.Text(s)
}

// toolUse writes a tool_use once per id.
func (t *turn) toolUse(id, name string, input any) error {
	if t.tools.seen(id) {
		return nil
	}
	if err := t.flush(); err != nil {
		return err
	}
	var warning string
	if raw, ok := input.(json.RawMessage); ok {
		// Judged as an object: its command may be dangerous.
		var m map[string]any
		if json.Unmarshal(raw, &m) == nil {
			input = m
		}
	}
	if m, ok := input.(map[string]any); ok {
		if c, ok := m["command"].(string); ok {
			t.shown[c] = true
		}
		if why := t.dangers.Call(name, m); why != "" {
			m = maps.Clone(m)
			m["dangerous"] = why
			input, warning = m, permission.DangerWarning(describe(name, m), why)
		}
		if _, said := m["approved_by"]; !said && t.askedBy != nil {
			if by := t.askedBy(name, m); by != "" {
				m = maps.Clone(m)
				m["approved_by"] = by
				input = m
			}
		}
	}
	t.tools.use(id, toolCall{name, input})
	t.watch.progress()
	if err := t.w.ToolUse(id, name, input); err != nil || warning == "" {
		return err
	}
	return t.w.Warning(warning)
}

// fillGaps reports the calls the program's transcript holds that the stream
// never showed: calls the program refused without a word in its stream,
// each a denial with the transcript's words for it.
func (t *turn) fillGaps(evs []transcript.Event) error {
	reported := map[string]bool{}
	for _, e := range evs {
		switch {
		case e.Kind == transcript.ToolCall && !t.shown[describeCall(e.Input)]:
			reported[e.ID] = true
			if err := t.toolUse("rec_"+e.ID, e.Name, e.Input); err != nil {
				return err
			}
		case e.Kind == transcript.ToolResult && reported[e.ID]:
			if err := t.deny("rec_"+e.ID, e.Output); err != nil {
				return err
			}
		}
	}
	return nil
}

// addUsage adds the tokens of one model request to the turn's.
func (t *turn) addUsage(u emit.Usage) {
	if t.usage == nil {
		t.usage = &emit.Usage{}
	}
	*t.usage = t.usage.Add(u)
}

// setUsage sets the turn's tokens: the provider reported them for the
// whole turn.
func (t *turn) setUsage(u emit.Usage) { t.usage = &u }

// beforeEnding sets what runs just before the result is written.
func (t *turn) beforeEnding(f func() error) { t.beforeEnd = f }

// describeCall is the command of a call's input, or "".
func describeCall(input map[string]any) string {
	c, _ := input["command"].(string)
	return c
}

// toolResult writes the result of a tool_use once; a result for a tool the
// stream never announced gets a generic tool_use first, so Yume never sees
// a result without its use. A tool we denied is reported as a denial.
func (t *turn) toolResult(id, content string, isError bool) error {
	if t.tools.finished(id) {
		return nil
	}
	if !t.tools.seen(id) {
		if err := t.toolUse(id, "Tool", map[string]any{}); err != nil {
			return err
		}
	}
	if err := t.flush(); err != nil {
		return err
	}
	tc, _ := t.tools.get(id)
	t.tools.finish(id)
	if msg, ok := t.denied[id]; ok {
		delete(t.denied, id)
		if content == "" {
			content = msg
		}
		return t.w.Deny(id, tc.name, tc.input, content)
	}
	if content == "" {
		content = "(no output)"
	}
	return t.w.ToolResult(id, content, isError)
}

// deny writes the tool_result of a denied tool and records the denial.
func (t *turn) deny(id, message string) error {
	t.denied[id] = message
	t.ours[id] = true
	return t.toolResult(id, message, true)
}

// notice writes a system notice (after init).
func (t *turn) notice(msg string) error {
	if err := t.ensureInit(); err != nil {
		return err
	}
	return t.w.Notice(msg)
}

// systemError reports an error now and remembers it for the result.
func (t *turn) systemError(msg string) error {
	if err := t.ensureInit(); err != nil {
		return err
	}
	t.errs = append(t.errs, msg)
	if me := modelerror.Find(msg); me != nil && me.Subtype() == "rate_limit" {
		return t.w.RateLimit(msg) // a 429 or quota: Yume shows it as such
	}
	return t.w.SystemError(msg)
}

// end writes the turn's result (once), after any buffered text. An error
// result whose message was not reported yet gets a system error first.
func (t *turn) end(r emit.Result) error {
	if t.w.TurnEnded() {
		return nil
	}
	if err := t.flush(); err != nil {
		return err
	}
	r = t.withFirstRun(r)
	if err := t.ensureInit(); err != nil {
		return err
	}
	if f := t.beforeEnd; f != nil {
		t.beforeEnd = nil
		if err := f(); err != nil {
			return err
		}
	}
	if r.Text == "" && !r.IsError {
		r.Text = t.last
	}
	if r.Usage == nil {
		r.Usage = t.usage // what the provider reported before it ended
	}
	advice := adviseResult(&r)
	// A tool we denied must show up in permission_denials even when the
	// provider never reported a result for it.
	ids := make([]string, 0, len(t.denied))
	for id := range t.denied {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if err := t.toolResult(id, t.denied[id], true); err != nil {
			return err
		}
	}
	if r.IsError {
		// Yume shows an error result only as "error during execution":
		// what happened, and for a model error what to do, is a system
		// error the chat shows.
		if advice != "" && !contains(t.errs, r.Text) {
			if err := t.w.SystemError(r.Text); err != nil {
				return err
			}
		}
		for _, e := range r.Errors {
			if advice == "" && !contains(t.errs, e) {
				if err := t.w.SystemError(e); err != nil {
					return err
				}
			}
		}
		if len(r.Errors) == 0 {
			r.Errors = t.errs
		}
	}
	if u := r.Usage; u != nil {
		if err := t.w.Usage(u.InputTokens+u.CacheReadInputTokens+u.CacheCreationInputTokens, u.OutputTokens); err != nil {
			return err
		}
	}
	t.w.MessageUsage(nil)
	return t.w.Result(r)
}

// finish ends a turn the provider left open when its output stopped.
func (t *turn) finish(exit error) error {
	if t.w.TurnEnded() {
		return nil
	}
	if r, ok := t.failedStart(t.provider.Name, exit); ok {
		return t.end(r) // in the provider's words (startfail.go)
	}
	msg := fmt.Sprintf("%s ended without finishing the turn", t.provider)
	if exit != nil {
		msg = fmt.Sprintf("%s exited (%v) without finishing the turn", t.provider, exit)
	}
	if len(t.errs) > 0 {
		msg += ": " + t.errs[len(t.errs)-1]
	}
	return t.end(emit.Result{IsError: true, Errors: []string{msg}})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// abort ends the turn after an interrupt: an interrupt line, then an error
// result (unless the provider had already finished the turn).
func (t *turn) abort() error {
	if t.w.TurnEnded() {
		return nil
	}
	if t.watch.stoppedWhy() != "" {
		return t.end(t.watch.stopResult()) // yume-cli stopped it, not the user
	}
	if err := t.flush(); err != nil {
		return err
	}
	if err := t.ensureInit(); err != nil {
		return err
	}
	if err := t.w.Interrupt(); err != nil {
		return err
	}
	return t.w.Result(emit.Result{IsError: true, Errors: []string{"interrupted by the user"}, Usage: t.usage})
}

package heuristics

import (
	"fmt"
	"strings"

	"github.com/clipperhouse/displaywidth"
)

// Detection is a rule that fired: what it means and what it read.
type Detection struct {
	Rule *Rule
	Kind Kind
	// Cleaned named groups (see cleanGroup); empty when the rule has none.
	Command, Prompt, Description, Text, Option string
	// Output is the `output` group with its line breaks kept (cleanOutput).
	Output string
	// Hidden is how many lines of the output the program folded away
	// ("… +4 lines (ctrl+o to expand)"): -1 some, 0 none.
	Hidden int
	// Context is the `context` group, line breaks kept: what the program
	// shows with a question (git add -p's hunk), for the GUI to see.
	Context string
	// File and Content are a file question's `file` and `content` groups
	// (content: the lines the program previews, line numbers removed).
	File, Content string
	// Rows are the rows the match covered; negative rows are scrollback
	// lines (-1 the newest) for rules that look at the transcript.
	Rows []int
	// Dialog is the dialog a question was read from by its shape (the
	// dialog rule), nil for a profile's rule.
	Dialog *Dialog
	// Key identifies the prompt for "never fires twice": rule, normalised
	// matched text and absolute row (View.Retired()+row).
	Key string
	// Wrapped: the command was read over more than one row and joined as
	// the program seems to have wrapped it (a space dropped at a break, or
	// a line break kept, is a guess); a transcript's copy is exact.
	Wrapped bool
}

// TraceStep says what one rule did during an evaluation.
type TraceStep struct {
	Rule   string
	Fired  bool
	Why    string            // why it fired or not, e.g. "no match in rows 0-39"
	Groups map[string]string // cleaned named groups of the match, if any
	Rows   []int             // rows of the match, if any
	// Of is the rule tried (nil for a step that tried none): its source
	// and line, and, for a trace, why its pattern found nothing (WhyNot).
	Of *Rule
}

// Where is the rule's file and line ("profiles/generic.yaml:42"), or what
// made it ("the dialog's shape").
func (r *Rule) Where() string {
	if r.Line > 0 {
		return fmt.Sprintf("%s:%d", r.Source, r.Line)
	}
	return r.Source
}

// generational is implemented by views that count their changes, so an
// unchanged screen is not evaluated twice.
type generational interface{ Generation() uint64 }

// Engine evaluates one profile's rules against one View over a session. It
// remembers which prompts fired so none fires twice. Not safe for concurrent
// use.
type Engine struct {
	p     *Profile
	fired map[string]string // identity -> rule name
	// claimed holds the answer row of each question that fired (absolute
	// row -> its text then), so a second rule matching the same question
	// (yes-no and inquirer-confirm both read "? Go on? (y/N)") stays quiet.
	claimed map[int64]claim
	filters map[*Rule]prefilter
	spans   map[*Rule]int // lineSpan of cursor: end rules

	// The last evaluation, to skip an unchanged screen.
	lastGen     uint64
	lastSettled bool
	lastIdle    bool // the last evaluation ran and fired nothing
}

// NewEngine returns an engine for p's rules.
func NewEngine(p *Profile) *Engine {
	e := &Engine{p: p, fired: make(map[string]string), claimed: make(map[int64]claim),
		filters: make(map[*Rule]prefilter, len(p.Rules)), spans: make(map[*Rule]int)}
	for _, r := range p.Rules {
		if r.Match == nil {
			continue
		}
		e.filters[r] = newPrefilter(r.Match.String())
		if r.Cursor == CursorEnd {
			e.spans[r] = lineSpan(r.Match.String())
		}
	}
	return e
}

// Profile is the profile the engine runs.
func (e *Engine) Profile() *Profile { return e.p }

// Evaluate runs the rules, in order, over v and returns the first that fires
// (nil if none) and a trace step for every rule tried.
//
// settled says the caller saw no output for the profile's quiet period. With
// settled false only rules with cursor: end are tried, and they fire only
// when the cursor proves the prompt complete; the caller may evaluate after
// every write. After a detection, evaluate again: another rule may fire on
// the same screen (a suggestion, then the menu below it). A screen whose
// Generation has not changed since an evaluation that fired nothing is not
// evaluated again; the trace then holds one step with an empty Rule.
func (e *Engine) Evaluate(v View, settled bool) (*Detection, []TraceStep) {
	g, hasGen := v.(generational)
	if hasGen {
		gen := g.Generation()
		if e.lastIdle && gen == e.lastGen && settled == e.lastSettled {
			return nil, []TraceStep{{Why: fmt.Sprintf("screen unchanged (generation %d)", gen)}}
		}
		e.lastGen, e.lastSettled = gen, settled
	}
	// Unsettled, only cursor: end rules run, and only if the cursor
	// follows text on its row: the cheap check that keeps evaluating after
	// every write affordable while output streams.
	waiting := settled || cursorAfterText(v)
	looks := make(map[Look]*lookText, 2)
	trace := make([]TraceStep, 0, len(e.p.Rules))
	seen := make(map[string]bool)
	tried := make(map[string]bool, len(e.p.Rules))
	var fired *Detection
	for _, r := range e.p.Rules {
		step := TraceStep{Rule: r.Name, Of: r}
		if !settled && r.Cursor != CursorEnd {
			step.Why = "not settled"
			trace = append(trace, step)
			continue
		}
		if !waiting {
			cr, cc, _ := v.Cursor()
			step.Why = fmt.Sprintf("not settled, and cursor at %d,%d does not follow text", cr, cc)
			trace = append(trace, step)
			continue
		}
		lt := looks[r.Look]
		if lt == nil {
			lt = buildLook(v, r.Look)
			looks[r.Look] = lt
		}
		d, why, whole := e.try(v, r, lt, settled, &step)
		tried[r.Name] = tried[r.Name] || whole
		if d != nil {
			seen[d.Key] = true
			if why == "" {
				step.Fired, step.Why = true, "fired"
				e.fired[d.Key] = r.Name
				trace = append(trace, step)
				fired = d
				break
			}
		}
		step.Why = why
		trace = append(trace, step)
	}
	// Forget prompts that a rule tried this time no longer sees, so the same
	// question asked again later fires again.
	for k, rule := range e.fired {
		if tried[rule] && !seen[k] {
			delete(e.fired, k)
		}
	}
	e.claimRow(v, fired)
	e.lastIdle = fired == nil
	return fired, trace
}

// try matches one rule. It returns the detection of the rule's last match
// (nil if none), why it must not fire ("" when it fires), and whether it
// searched the rule's whole look: only then may a prompt it did not see be
// forgotten (a cursor that wandered off a prompt does not remove it).
func (e *Engine) try(v View, r *Rule, lt *lookText, settled bool, step *TraceStep) (*Detection, string, bool) {
	// A cursor: end match ends on the cursor's line; when the regex spans at
	// most n newlines, the n+1 lines up to the cursor's are all it can match.
	from, to := 0, len(lt.text)
	span, windowed := e.spans[r]
	if windowed = windowed && span >= 0; windowed {
		from, to = lt.window(v, span)
	}
	filter := e.filters[r]
	var d *Detection
	var loc []int
	lower := lt.lower
	if windowed {
		lower = func() string { return strings.ToLower(lt.text[from:to]) }
	}
	if filter.admits(lt.text[from:to], lower) {
		d, loc = detectIn(v, r, lt, from, to)
	}
	if d == nil && windowed {
		if !settled {
			cr, cc, _ := v.Cursor()
			return nil, fmt.Sprintf("no match ending at the cursor (%d,%d)", cr, cc), false
		}
		// Settled evaluations are rare: read the whole text, so the trace
		// can say where the prompt is when the cursor is not after it.
		if filter.admits(lt.text, lt.lower) {
			d, loc = detect(v, r, lt)
		}
	}
	if d == nil {
		if len(lt.segs) == 0 {
			return nil, "no rows to look at (screen blank)", true
		}
		return nil, fmt.Sprintf("no match in rows %d-%d", lt.from, lt.to), true
	}
	step.Rows, step.Groups = d.Rows, groupsOf(d)
	if r.Cursor == CursorEnd {
		if ok, er, ec := lt.cursorAfter(v, loc[0], loc[1]); !ok {
			cr, cc, _ := v.Cursor()
			return d, fmt.Sprintf("matched but cursor at %d,%d not after match end %d,%d", cr, cc, er, ec), true
		}
	}
	if _, done := e.fired[d.Key]; done {
		return d, "already fired", true
	}
	if c := e.claimedBy(v, d); c != nil {
		return d, "already answered (rule " + c.rule + " fired on these rows)", true
	}
	return d, "", true
}

// claim is a fired question: the text of its rows, from its first row
// (absolute) down to its answer row, as they read when its rule fired.
// Another rule that matches the same answer row while those rows still
// read the same is the same question; a new question drawn on the same
// rows (a TUI's dialogs all end "❯ 1. Yes") reads differently above.
type claim struct {
	text, rule string
	first      int64
}

// answerRow is the absolute row of a detection's last row: where a
// question's answer goes.
func answerRow(v View, d *Detection) int64 {
	if len(d.Rows) == 0 {
		return -1 << 62
	}
	return int64(v.Retired()) + int64(d.Rows[len(d.Rows)-1])
}

// claimedBy is the claim of a fired question whose rows d overlaps while
// they still read the same: the same question, seen by another rule.
func (e *Engine) claimedBy(v View, d *Detection) *claim {
	if !d.Kind.asks() {
		return nil
	}
	first, last := firstRow(v, d), answerRow(v, d)
	for end, c := range e.claimed {
		if first <= end && last >= c.first && regionText(v, c.first, end) == c.text {
			return &c
		}
	}
	return nil
}

// firstRow is the absolute row of a detection's first visible row.
func firstRow(v View, d *Detection) int64 {
	for _, r := range d.Rows {
		if r >= 0 {
			return int64(v.Retired()) + int64(r)
		}
	}
	return answerRow(v, d)
}

// regionText is the screen's absolute rows first..last; "" when they are
// not all visible.
func regionText(v View, first, last int64) string {
	r, end := first-int64(v.Retired()), last-int64(v.Retired())
	if r < 0 || end >= int64(v.Rows()) || end < r {
		return ""
	}
	var b strings.Builder
	for ; r <= end; r++ {
		b.WriteString(normalise(v.Line(int(r))))
		b.WriteByte('\n')
	}
	return b.String()
}

// claimRow records a fired question's answer row, and forgets claims on
// rows that changed or left the screen.
func (e *Engine) claimRow(v View, d *Detection) {
	for abs, c := range e.claimed {
		if regionText(v, c.first, abs) != c.text {
			delete(e.claimed, abs)
		}
	}
	if d != nil && d.Kind.asks() {
		first, last := firstRow(v, d), answerRow(v, d)
		e.claimed[last] = claim{regionText(v, first, last), d.Rule.Name, first}
	}
}

// detect finds the last match of r in lt and reads it into a Detection,
// returning the match's byte range too. Only the last match counts: the
// bottom-most prompt is the live one, older ones were answered.
func detect(v View, r *Rule, lt *lookText) (*Detection, []int) {
	return detectIn(v, r, lt, 0, len(lt.text))
}

// detectIn is detect over the bytes [from, to) of the text, which start
// and end at line boundaries.
func detectIn(v View, r *Rule, lt *lookText, from, to int) (*Detection, []int) {
	all := r.Match.FindAllStringSubmatchIndex(lt.text[from:to], -1)
	if len(all) == 0 {
		return nil, nil
	}
	loc := all[len(all)-1]
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += from
		}
	}
	d := &Detection{Rule: r, Kind: r.Kind, Rows: lt.rows(loc[0], loc[1])}
	for i, name := range r.Match.SubexpNames() {
		if name == "" || loc[2*i] < 0 {
			continue
		}
		raw := lt.text[loc[2*i]:loc[2*i+1]]
		switch name {
		case "output":
			d.Output, d.Hidden = cleanOutput(raw)
			continue
		case "context":
			d.Context, _ = cleanOutput(raw)
			continue
		case "content":
			d.Content = cleanPreview(raw)
			continue
		}
		lineStart := strings.LastIndexByte(lt.text[:loc[2*i]], '\n') + 1
		if name == "command" {
			// Read as drawn: joined the way the program wrapped it.
			d.Command = drawnCommand(raw, lt.text[lineStart:loc[2*i]], v.Cols())
			d.Wrapped = strings.Contains(strings.TrimSpace(raw), "\n")
			continue
		}
		// A group that starts mid-row ("● answer…") has later rows indented
		// to line up under it: pad its first row to its column so that
		// cleanGroup's dedent sees the layout as drawn.
		if strings.Contains(raw, "\n") {
			raw = strings.Repeat(" ", displaywidth.String(lt.text[lineStart:loc[2*i]])) + raw
		}
		val := cleanGroup(raw)
		switch name {
		case "prompt":
			d.Prompt = val
		case "description":
			d.Description = val
		case "text":
			d.Text = val
		case "option":
			d.Option = val
		case "file":
			d.File = val
		}
	}
	first := int64(0)
	if len(d.Rows) > 0 {
		first = int64(d.Rows[0])
	}
	abs := int64(v.Retired()) + first
	d.Key = fmt.Sprintf("%s\x00%s\x00%d", r.Name, normalise(lt.text[loc[0]:loc[1]]), abs)
	return d, loc[:2]
}

// cursorAfterText reports whether the cursor sits just after the text of
// its row (at most two blanks on), where a prompt leaves it.
func cursorAfterText(v View) bool {
	row, col, _ := v.Cursor()
	if row < 0 || row >= v.Rows() {
		return false
	}
	w := displaywidth.String(v.Line(row))
	if w == 0 {
		return false
	}
	return col >= w && col <= w+2 || w >= v.Cols() && col == v.Cols()-1
}

// normalise collapses runs of blanks so a redraw that only moves spaces is
// the same prompt.
func normalise(s string) string { return strings.Join(strings.Fields(s), " ") }

// groupsOf lists a detection's non-empty groups for the trace.
func groupsOf(d *Detection) map[string]string {
	g := map[string]string{}
	for k, v := range map[string]string{"command": d.Command, "prompt": d.Prompt,
		"description": d.Description, "text": d.Text, "option": d.Option, "output": d.Output, "context": d.Context} {
		if v != "" {
			g[k] = v
		}
	}
	if len(g) == 0 {
		return nil
	}
	return g
}

// Forget lets d fire again: the driver postponed acting on it (a turn that
// looks done while the program has not yet taken the keys it was sent).
func (e *Engine) Forget(d *Detection) {
	delete(e.fired, d.Key)
	e.lastIdle = false
}

// Unfire is Forget for a detection the driver did not act on at all (the
// program was still running): its question may fire again on v, even as
// the same question of another rule.
func (e *Engine) Unfire(v View, d *Detection) {
	e.Forget(d)
	if d.Kind.asks() {
		delete(e.claimed, answerRow(v, d))
	}
}

// StillShows re-reads v just before the driver types an approval: true when
// d's rule still matches the same prompt (same identity) with the same
// command. Cursor and settling are not checked: only the content matters.
func (e *Engine) StillShows(v View, d *Detection) bool {
	if d == nil || d.Rule == nil {
		return false
	}
	now, _ := detect(v, d.Rule, buildLook(v, d.Rule.Look))
	if d.Dialog != nil { // its rule matches its very rows: the key says it all
		return now != nil && now.Key == d.Key
	}
	return now != nil && now.Key == d.Key && now.Command == d.Command
}

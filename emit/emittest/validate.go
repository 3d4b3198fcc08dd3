// Package emittest checks streams against the output contract (docs/protocol.md):
// the conformance checker every package's tests run their event streams
// through. Test support only: no production code imports it.
package emittest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Validate checks a whole stdout stream against the contract of
// docs/protocol.md and returns every problem found (nil for a good stream):
//
//   - every line is one JSON object with a string "type", valid UTF-8,
//     newline-terminated and strictly shorter than maxLine;
//   - each known type has its required fields with the right JSON types
//     (tool_result content is a string, also inside user messages), and
//     no unknown type appears (Yume would show it raw);
//   - system/init comes first and exactly once; every line has a unique uuid;
//   - tool_use ids are unique and every tool_result (and can_use_tool
//     request) names an earlier tool_use;
//   - every turn ends with exactly one result, immediately followed by
//     message_stop; the result carries the turn's only top-level "usage"
//     object (flat usage events have top-level counts and do not count),
//     or none, and never one with input and output both 0 (Yume's sign
//     of a compaction) unless the turn says it compacted;
//     an error result has is_error true and errors; a turn with an
//     interrupt ends in an error result; each permission denial matches an
//     is_error tool_result of its turn.
//
// System lines between turns (notices, errors about bad control frames)
// are fine; any other line after the last message_stop is a turn that never
// ended.
func Validate(stream []byte) []error {
	v := validator{uuids: map[string]int{}, toolUses: map[string]int{}}
	if len(stream) == 0 {
		return []error{&lineError{msg: "empty stream: expected system/init first"}}
	}
	if stream[len(stream)-1] != '\n' {
		v.errs = append(v.errs, &lineError{msg: "the last line is not terminated by a newline"})
	} else {
		stream = stream[:len(stream)-1]
	}
	for i, line := range bytes.Split(stream, []byte("\n")) {
		v.line(i+1, line)
	}
	v.finish()
	return v.errs
}

// lineError is one problem, located by line (0 for the whole stream).
type lineError struct {
	line int
	typ  string
	msg  string
}

func (e *lineError) Error() string {
	switch {
	case e.line == 0:
		return "stream: " + e.msg
	case e.typ == "":
		return fmt.Sprintf("line %d: %s", e.line, e.msg)
	}
	return fmt.Sprintf("line %d (%s): %s", e.line, e.typ, e.msg)
}

type validator struct {
	errs     []error
	n        int    // current line number
	typ      string // current line's type
	sawInit  bool
	uuids    map[string]int // uuid -> line
	toolUses map[string]int // tool_use id -> line
	// afterResult is set on the line following a result, which must be
	// message_stop.
	afterResult bool
	turn        turn
}

// turn is what the validator knows about the segment since the last
// message_stop.
type turn struct {
	start       int // first line that is not a system line, 0 if none yet
	results     int
	interrupted bool
	compacted   bool            // a system compact line: a result may carry zero usage
	errored     map[string]bool // tool_use ids answered by an is_error tool_result
}

func (v *validator) fail(format string, args ...any) {
	v.errs = append(v.errs, &lineError{line: v.n, typ: v.typ, msg: fmt.Sprintf(format, args...)})
}

func (v *validator) line(n int, line []byte) {
	v.n, v.typ = n, ""
	if len(line)+1 >= maxLine {
		v.fail("%d bytes with its newline; Yume drops lines of %d bytes or more", len(line)+1, maxLine)
	}
	if !utf8.Valid(line) {
		v.fail("invalid UTF-8")
	}
	var m fields
	if len(bytes.TrimSpace(line)) == 0 || line[0] != '{' || json.Unmarshal(line, &m) != nil {
		v.fail("not a single JSON object: %s", quote(line))
		return
	}
	typ, ok, err := m.Str("type")
	if err != nil || !ok {
		v.fail(`no string "type" (Yume ignores the line)`)
		return
	}
	v.typ = typ
	if v.afterResult && typ != "message_stop" {
		v.fail("the result on line %d must be followed immediately by message_stop", n-1)
	}
	v.afterResult = false
	v.checkOrder(typ, m)
	v.checkUUID(m)
	v.checkFields(typ, m)
	v.checkTurn(typ, m)
}

func (v *validator) checkOrder(typ string, m fields) {
	sub, _, _ := m.Str("subtype")
	isInit := typ == "system" && sub == "init"
	switch {
	case isInit && v.sawInit:
		v.fail("a second system/init; it must appear exactly once")
	case !isInit && !v.sawInit && v.n == 1:
		v.fail("the first line must be system/init")
	}
	v.sawInit = v.sawInit || isInit
}

func (v *validator) checkUUID(m fields) {
	id, ok, err := m.Str("uuid")
	if err != nil || !ok || id == "" {
		v.fail(`no string "uuid": Yume drops a line identical to a recent one`)
		return
	}
	if prev, dup := v.uuids[id]; dup {
		v.fail("uuid %q already used on line %d", id, prev)
	}
	v.uuids[id] = v.n
}

// useTool records a tool_use id.
func (v *validator) useTool(id string) {
	if prev, dup := v.toolUses[id]; dup {
		v.fail("tool_use id %q already used on line %d", id, prev)
		return
	}
	v.toolUses[id] = v.n
}

// answerTool checks that a tool_result names an earlier tool_use.
func (v *validator) answerTool(id string, isError bool) {
	if _, ok := v.toolUses[id]; !ok {
		v.fail("tool_result for %q, which no earlier tool_use has", id)
	}
	if isError {
		if v.turn.errored == nil {
			v.turn.errored = map[string]bool{}
		}
		v.turn.errored[id] = true
	}
}

func (v *validator) checkTurn(typ string, m fields) {
	if typ != "system" && typ != "message_stop" && v.turn.start == 0 {
		v.turn.start = v.n
	}
	if _, ok := m["usage"]; ok && typ != "result" {
		v.fail(`top-level "usage" object: Yume's backend adds it up, so only result may carry one (use flat input_tokens/output_tokens for live progress)`)
	}
	switch typ {
	case "interrupt":
		v.turn.interrupted = true
	case "result":
		v.turn.results++
		if v.turn.results > 1 {
			v.fail("a second result in one turn")
		}
		v.checkResultTurn(m)
		v.afterResult = true
	case "message_stop":
		if v.turn.results == 0 {
			v.fail("message_stop without a result for the turn")
		}
		v.turn = turn{}
	}
}

// checkResultTurn checks a result against the turn it ends.
func (v *validator) checkResultTurn(m fields) {
	isError, _, _ := m.Bool("is_error")
	if v.turn.interrupted && !isError {
		v.fail("the turn was interrupted but its result has is_error false")
	}
	var denials []fields
	if raw, ok := m["permission_denials"]; ok && json.Unmarshal(raw, &denials) == nil {
		for _, d := range denials {
			id, _, _ := d.Str("tool_use_id")
			if !v.turn.errored[id] {
				v.fail("permission denial of %q has no is_error tool_result in this turn", id)
			}
		}
	}
}

func (v *validator) finish() {
	v.n, v.typ = 0, ""
	if !v.sawInit {
		v.fail("no system/init line")
	}
	if v.afterResult {
		v.fail("the stream ends after a result without message_stop")
	} else if v.turn.start != 0 {
		v.fail("the turn starting on line %d never ended with a result", v.turn.start)
	}
}

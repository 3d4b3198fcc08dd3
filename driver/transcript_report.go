package driver

import (
	"fmt"
	"maps"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
)

// The calls the transcript tells of that no question on screen reported:
// each becomes a tool_use, saying what approved it.

// reportAlso writes the tool_uses of the other files a call changes (a
// patch of several files), each saying what approved it.
func (d *driver) reportAlso(c *logCall, by string) {
	for _, a := range c.ev.Also {
		id := emit.NewToolUseID()
		input := maps.Clone(a.Input)
		if input == nil {
			input = map[string]any{}
		}
		input["approved_by"] = by
		c.also = append(c.also, id)
		d.reportRan(id, a.Name, input)
	}
}

// reportRan writes the tool_use of a call that ran without a question
// here, marked (and warned about) when it was dangerous: the person
// learns of it even though nobody could stop it.
func (d *driver) reportRan(id, name string, input map[string]any) {
	danger := d.policy.Assess(name, input)
	if danger.Flagged() {
		input["dangerous"] = danger.Reason
	}
	d.emitErr(d.out.ToolUse(id, name, input))
	if danger.Flagged() {
		d.emitErr(d.out.Warning(permission.DangerWarning(describeCall(name, input), danger.Reason)))
	}
}

// pendingCall is the newest logged call not reported yet: the one a
// question on screen is about.
func (d *driver) pendingCall() *logCall {
	for i := len(d.log.order) - 1; i >= 0; i-- {
		if c := d.log.calls[d.log.order[i]]; c.toolUse == "" && !c.done {
			return c
		}
	}
	return nil
}

// reportOverdue reports calls that have run longer than UnaskedAfter
// without a question: the program did not ask.
func (d *driver) reportOverdue() {
	if d.cfg.UnaskedAfter > 0 && d.t.log.waiting == nil && d.st != stateAwaiting {
		d.reportUnasked(d.cfg.UnaskedAfter)
	}
}

// reportUnasked reports every unreported call older than grace.
func (d *driver) reportUnasked(grace time.Duration) {
	for _, id := range d.log.order {
		if c := d.log.calls[id]; c.toolUse == "" && !c.done && d.now()-c.seenAt >= grace {
			d.reportCall(c)
		}
	}
}

// reportCall writes the tool_use of a call the program ran without
// asking, saying who let it run.
func (d *driver) reportCall(c *logCall) {
	c.toolUse = emit.NewToolUseID()
	input := maps.Clone(c.ev.Input)
	if input == nil {
		input = map[string]any{}
	}
	by, _ := input["approved_by"].(string) // the log's own word (a side request's, qwen_side.go)
	switch {
	case by != "":
	case d.cfg.UnaskedBy != "":
		by = d.cfg.UnaskedBy
	default:
		by = "the program, without asking"
	}
	input["approved_by"] = by
	d.tr.state(fmt.Sprintf("the program ran %s %s without asking: reported as %s", c.ev.Name, c.ev.ID, c.toolUse))
	d.reportRan(c.toolUse, c.ev.Name, input)
	d.reportAlso(c, by)
}

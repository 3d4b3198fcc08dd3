package driver

import (
	"fmt"
	"strings"
	"time"

	"github.com/yume-cli/yume-cli/heuristics"
)

// Dialogs no rule knows. On a settled screen where no rule fired, a
// dialog found by its shape (heuristics.FindDialog: options, one
// highlighted, one that allows once) that stays up for dialogHold
// becomes a question to the GUI like any rule's. Staying up is what a
// dialog does and a list in a streaming answer does not; it also works
// for TUIs that poll their terminal, which never show an input wait.

// minDialogHold is the least time a dialog no rule knows must stay up,
// unchanged, before it is asked (four quiet periods where those are
// longer).
const minDialogHold = 400 * time.Millisecond

// dialogSeen is the dialog a turn saw last and since when.
type dialogSeen struct {
	key   string
	since time.Duration
}

// checkDialog asks the GUI about a dialog no rule knows, once it has
// stayed up; true when it did.
func (d *driver) checkDialog() bool {
	if d.st != stateIdle && d.st != stateCapturing || d.at[timerEnter] != 0 || d.t.queued != "" {
		return false
	}
	det, step := d.engine.Dialog(d.screen)
	d.tr.evaluate(true, []heuristics.TraceStep{step})
	if det == nil {
		d.t.dialog = dialogSeen{}
		return false
	}
	hold := max(minDialogHold, 4*d.quiet)
	if rec := d.src.recording(); rec != nil && rec.typedHere() != "" {
		hold = 0 // a replay's person answers it here: it is a question (a person reads one in 100-300 ms)
	}
	if d.t.dialog.key != det.Key {
		d.t.dialog = dialogSeen{key: det.Key, since: d.now()}
	}
	if wait := d.t.dialog.since + hold - d.now(); wait > 0 {
		d.engine.Unfire(d.screen, det) // not yet: it must stay up
		d.at[timerQuiet] = d.now() + wait
		d.tr.state(fmt.Sprintf("a dialog no rule knows (%q): asked if it stays up %v more", det.Prompt, wait))
		return false
	}
	d.tr.state(fmt.Sprintf("a dialog no rule knows stayed up %v: %q, options %q", hold, det.Prompt, det.Dialog.Options))
	d.handle(det)
	return true
}

// agentDialog reads the dialog on screen for an agent's question whose
// rule found no command (Claude's "Do you want to create notes.md?"):
// what the dialog draws is the call, never the agent's command line.
func (d *driver) agentDialog(det *heuristics.Detection) {
	if det.Dialog != nil || det.Command != "" || det.Rule.Tool != "" || len(d.cfg.Profile.Command) == 0 {
		return
	}
	if dl, _ := heuristics.FindDialog(d.screen); dl != nil {
		det.Dialog = dl
		if det.File == "" {
			det.File, det.Content = dl.File, dl.Content
		}
		det.Command = dl.Command
	}
}

// askUserQuestion is Claude's tool for a question to the person: a dialog
// that names no call.
const askUserQuestion = "AskUserQuestion"

// dialogCall is the call a dialog read by its shape is about: a Write or
// Edit of the file it names, a Bash command it draws, or else its
// question with its options (AskUserQuestion): never text it does not show.
func dialogCall(dl *heuristics.Dialog, desc string) (tool string, input map[string]any, about string) {
	switch {
	case dl.Tool == "Write":
		input = map[string]any{"file_path": dl.File, "content": dl.Content}
		about = dl.File
	case dl.Tool == "Edit":
		input = map[string]any{"file_path": dl.File}
		old, new := diffSides(dl.Content)
		if old != "" || new != "" {
			input["old_string"], input["new_string"] = old, new
		}
		about = dl.File
	case dl.Command != "":
		return "Bash", map[string]any{"command": dl.Command, "description": desc}, dl.Command
	default:
		var options []any
		for _, o := range dl.Options {
			options = append(options, map[string]any{"label": o})
		}
		input = map[string]any{"questions": []any{map[string]any{
			"question": dl.Question, "header": "Dialog", "options": options, "multiSelect": false}}}
		about = dl.Question
	}
	if desc != "" {
		input["description"] = desc
	}
	tool = dl.Tool
	if tool == "" {
		tool = askUserQuestion
	}
	return tool, input, about
}

// diffSides splits a drawn diff into the lines it removes and adds.
func diffSides(diff string) (old, new string) {
	var o, n []string
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "-"):
			o = append(o, strings.TrimPrefix(strings.TrimPrefix(l, "-"), " "))
		case strings.HasPrefix(l, "+"):
			n = append(n, strings.TrimPrefix(strings.TrimPrefix(l, "+"), " "))
		}
	}
	return strings.Join(o, "\n"), strings.Join(n, "\n")
}

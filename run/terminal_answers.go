package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/permission"
)

// A person at a terminal answering --permission-mode interactive is
// asked each question in words on stderr and answers y or n; JSON frames
// are still read, so a script at a terminal works as before.

// answersInWords reports a person at a terminal answering questions.
func answersInWords(cfg *Config) bool {
	return cfg.IO.InIsTerminal && !cfg.IO.InIsNull && cfg.Permission == permission.Interactive
}

// sayQuestion asks a question in words on w.
func sayQuestion(w io.Writer) func(emit.Asked) {
	return func(a emit.Asked) {
		fmt.Fprintf(w, "\nyume-cli: %s [y/N] ", inWords(a))
	}
}

// inWords is a permission request as a person would be asked it.
func inWords(a emit.Asked) string {
	var in map[string]any
	if b, err := json.Marshal(a.Input); err == nil {
		_ = json.Unmarshal(b, &in) // a non-object input is said as JSON below
	}
	str := func(k string) string { s, _ := in[k].(string); return s }
	switch {
	case a.Tool == "Bash" && str("command") != "":
		q := fmt.Sprintf("Run `%s`?", ClipLine(str("command"), 300))
		if d := str("description"); d != "" {
			q += " (" + ClipLine(d, 200) + ")"
		}
		return q
	case (a.Tool == "Write" || a.Tool == "Edit" || a.Tool == "MultiEdit") && str("file_path") != "":
		verb := map[string]string{"Write": "Write", "Edit": "Edit", "MultiEdit": "Edit"}[a.Tool]
		return fmt.Sprintf("%s %s?", verb, str("file_path"))
	}
	b, _ := json.Marshal(a.Input)
	return fmt.Sprintf("Allow %s %s?", a.Tool, ClipLine(string(b), 200))
}

// errNothingWaits: a y or n typed when no question waits.
var errNothingWaits = errors.New("no question waits for an answer")

// answerInWords reads a line a person typed: y or yes approves the
// waiting question; n, no or an empty line (the default) denies it, and
// "n <words>" denies it saying why. ok is false for a line that is not an
// answer in words (a JSON frame, say).
func answerInWords(line string, w *emit.Writer) (c emit.Control, ok bool, err error) {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "{") {
		return emit.Control{}, false, nil
	}
	word, why, _ := strings.Cut(t, " ")
	var approve bool
	switch strings.ToLower(word) {
	case "y", "yes":
		approve = true
	case "n", "no", "":
	default:
		return emit.Control{}, true, fmt.Errorf("%q is not an answer: type y or n (n and a reason denies it saying why), or a JSON control frame such as %s", ClipLine(t, 40), validFrame(w))
	}
	a, waits := w.Waiting()
	if !waits {
		return emit.Control{}, true, fmt.Errorf("%w: %q answers nothing (type a JSON control frame, or wait for a question)", errNothingWaits, t)
	}
	return emit.Control{Kind: emit.ControlApproval, ToolUseID: a.ToolUseID, Approved: approve, Message: strings.TrimSpace(why)}, true, nil
}

// validFrame is a frame that would be accepted now: an answer to the
// question that waits, else a prompt.
func validFrame(w *emit.Writer) string {
	if a, ok := w.Waiting(); ok {
		return fmt.Sprintf(`{"type":"tool_approval","id":%q,"approved":true}`, a.ToolUseID)
	}
	return `{"type":"user","content":"your prompt"}`
}

// ClipLine is s on one line, cut to n runes with an ellipsis.
func ClipLine(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

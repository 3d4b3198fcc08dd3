package driver

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/yume-cli/yume-cli/heuristics"
)

// Prompt submission: a prompt from the GUI (a user frame, a persistent
// turn) is typed into the program's input box once the profile's ready
// screen shows, then submitted with Enter. The turn begins there.

// pasteSubmitDelay is the least time between a typed prompt and the Enter
// that submits it; enterWait bounds how long the Enter waits for the
// program to draw the prompt.
const (
	pasteSubmitDelay = 100 * time.Millisecond
	enterWait        = time.Second
)

// enterKey submits a typed prompt; promptRule names its keys in traces.
var (
	enterKey, _ = heuristics.ParseKeys("<Enter>")
	promptRule  = &heuristics.Rule{Name: "prompt"}
)

// enterDelay is how long the screen must be still after a typed prompt
// before its Enter.
func (d *driver) enterDelay() time.Duration { return max(pasteSubmitDelay, d.quiet) }

// typePrompt types a queued prompt once the program is ready for it: the
// profile's ready regex matches the screen (no regex: at once). With
// bracketed paste on, the text goes as one paste, then Enter submits it.
func (d *driver) typePrompt() {
	t := d.t
	if t.queued == "" || d.st != stateIdle {
		return
	}
	if re := d.cfg.Profile.Ready; re != nil && !re.MatchString(d.screen.String()) {
		return
	}
	b := d.typeText("user prompt", t.queued)
	t.prompt, t.queued, t.begun = t.queued, "", false // it begins at its Enter
	d.tr.keys("user prompt", "", b)
	if _, err := d.cfg.Term.Write(b); err != nil {
		d.emitErr(d.out.SystemError("could not type the prompt: " + err.Error()))
		return
	}
	// Enter apart from the paste, after the program drew it: a TUI that
	// reads the paste as one event would take an Enter with it as text,
	// and Gemini takes an Enter that comes just after a paste it is still
	// drawing as a line break (its guard against pasted text submitting
	// itself; seen on a loaded machine). So each output moves the Enter
	// on (printedAt) until the screen is still, for at most enterWait; a
	// program that draws nothing gets it then.
	t.enterBy = d.now() + enterWait
	d.at[timerEnter] = t.enterBy
}

// boxHold is how long an input box read by its shape must stay as it is
// before the prompt is typed into it: a TUI may draw its box a moment
// before a notice or a first-run question covers it.
const boxHold = 300 * time.Millisecond

// typeIntoBox types the prompt of a program no profile knows into the
// empty input box it shows (heuristics.ReadyBox), as a person would, once
// the box has stayed for boxHold on a settled screen. A program that
// shows the prompt already took it (its command line, a file) and gets
// nothing typed; one that asks a question first gets nothing either
// (ask drops the prompt).
func (d *driver) typeIntoBox() {
	t := d.t
	if t.boxPrompt == "" || d.st != stateIdle || t.keying != nil || t.queued != "" || d.at[timerEnter] != 0 {
		return
	}
	row, ok := heuristics.ReadyBox(d.screen)
	if !ok {
		t.boxSeen = dialogSeen{}
		return
	}
	if strings.Contains(d.screen.String(), strings.TrimSpace(firstLine(t.boxPrompt))) {
		t.boxPrompt = ""
		d.tr.state("the prompt is on screen already: the program took it, nothing is typed")
		return
	}
	if key := fmt.Sprintf("%d:%s", row, d.screen.Line(row)); t.boxSeen.key != key {
		t.boxSeen = dialogSeen{key: key, since: d.now()}
	}
	if wait := t.boxSeen.since + boxHold - d.now(); wait > 0 {
		d.at[timerQuiet] = d.now() + wait
		return
	}
	t.queued, t.boxPrompt, t.boxed, t.boxRow = t.boxPrompt, "", true, row
	d.tr.state(fmt.Sprintf("an empty input box on row %d, read by its shape: the prompt is typed there", row))
	d.typePrompt()
}

// submitPrompt types the Enter after a typed prompt: the turn begins.
func (d *driver) submitPrompt() {
	d.send(promptRule, "submit prompt", enterKey)
	d.t.begun = true
	d.tr.state("the turn begins: its prompt is submitted")
	d.expectTaken("submit prompt", promptRule, enterKey, nil)
}

// Text from the GUI or a flag (a prompt, a persistent turn's user frame,
// a revision) reaches the program through typeText: heuristics.TypeText,
// the one typing function, with the program's bracketed-paste mode and
// the profile's newline. What typing changed is traced; removed control
// characters are reported once per text through OnNote (stderr with
// --verbose), and lines joined with spaces in a notice to the GUI, since
// the program then gets a different prompt than the user wrote.

// typeText is text as the keys that type it now; why names the text in
// reports ("user prompt").
func (d *driver) typeText(why, text string) []byte {
	t := heuristics.TypeText(text, d.screen.BracketedPaste(), d.cfg.Profile.LineBreak())
	d.reportTyped(why, t)
	return t.Keys
}

// promptKeys is an input rule's keys with <Prompt> standing for text (the
// prompt, or a revision's feedback), typed as typeText types it.
func (d *driver) promptKeys(k heuristics.Keys, text string) heuristics.Keys {
	if !k.NeedsPrompt() {
		return k
	}
	t := heuristics.TypeText(text, d.screen.BracketedPaste(), d.cfg.Profile.LineBreak())
	d.reportTyped("input text", t)
	return k.WithTyped(t)
}

// reportTyped says what typing a text changed.
func (d *driver) reportTyped(why string, t heuristics.Typed) {
	if t.Removed == 0 && t.Joined == 0 {
		return
	}
	var what []string
	if t.Removed > 0 {
		what = append(what, fmt.Sprintf("%d control character(s) or paste marker(s) removed", t.Removed))
		if d.cfg.OnNote != nil {
			d.cfg.OnNote(fmt.Sprintf("removed %d control character(s) or paste marker(s) from the %s: it is typed as text, never as keys", t.Removed, why))
		}
	}
	if t.Joined > 0 {
		what = append(what, fmt.Sprintf("%d line break(s) typed as spaces", t.Joined))
		d.emitErr(d.out.Notice(fmt.Sprintf("the %s's %d line break(s) were typed as spaces: the program has bracketed paste off, and profile %s names no newline key (newline:)",
			why, t.Joined, d.cfg.Profile.Name)))
	}
	d.tr.state("typing the " + why + ": " + strings.Join(what, "; "))
}

// A replay of a person's own session: the person typed the prompt into
// the program's ready input box and pressed Enter (seconds later,
// perhaps). That text is the turn's prompt, reported as a prompt
// yume-cli types live is (the "user prompt" keys, OnTurn); its Enter is
// typed at the recorded time and submits it, and the turn begins there.

// pasteStart and pasteEnd mark a bracketed paste in typed input.
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// recordedPrompt takes, in a replay, the text the recording typed at the
// ready input box of a turn that has no prompt yet as the turn's prompt.
func (d *driver) recordedPrompt() bool {
	rec, t := d.src.recording(), d.t
	if rec == nil || d.st != stateIdle || t.prompt != "" || t.queued != "" || d.at[timerEnter] != 0 {
		return false
	}
	typed := rec.typedHere()
	if typed == "" || typed[0] < 0x20 && !strings.HasPrefix(typed, pasteStart) || typed[0] == 0x7f {
		return false // keys, not text: an answer, a quit
	}
	if !d.atReadyBox() {
		return false
	}
	raw, text, ok := promptLine(rec.PendingInput())
	if !ok {
		return false
	}
	if err := rec.takeKeys(raw); err != nil {
		return false
	}
	t.prompt, t.begun = text, false // it begins at its Enter
	d.tr.keys("user prompt", "", []byte(raw))
	d.tr.state("the recording typed this turn's prompt at the input box: " + strconv.Quote(text))
	if d.cfg.OnTurn != nil {
		d.cfg.OnTurn(text)
	}
	if until := rec.TypedUntil(); until > d.now() {
		t.answeringUntil = until // the screens of the prompt being typed
	}
	at, _ := rec.nextInputAt()
	t.enterBy, t.enterRecorded = max(at, d.now()), true
	d.at[timerEnter] = t.enterBy
	return true
}

// atReadyBox reports the program at its ready input box: the profile's
// ready screen, or for a profile that knows none, an empty input box read
// by its shape.
func (d *driver) atReadyBox() bool {
	if re := d.cfg.Profile.Ready; re != nil {
		return re.MatchString(d.screen.String())
	}
	_, ok := heuristics.ReadyBox(d.screen)
	return ok
}

// promptLine reads the input a person typed up to its Enter as a prompt:
// raw is the keys before the Enter, text what they typed (a bracketed
// paste's markers taken out, Backspace applied). ok is false where the
// input holds no Enter, or keys that are not typing (arrows, Ctrl-C).
func promptLine(in string) (raw, text string, ok bool) {
	var b []rune
	pasting := false
	for i := 0; i < len(in); {
		switch {
		case strings.HasPrefix(in[i:], pasteStart):
			pasting, i = true, i+len(pasteStart)
			continue
		case strings.HasPrefix(in[i:], pasteEnd):
			pasting, i = false, i+len(pasteEnd)
			continue
		}
		r, n := utf8.DecodeRuneInString(in[i:])
		switch {
		case (r == '\r' || r == '\n') && !pasting:
			return in[:i], strings.TrimSpace(string(b)), len(strings.TrimSpace(string(b))) > 0
		case r == 0x7f || r == 0x08:
			if len(b) > 0 {
				b = b[:len(b)-1]
			}
		case r == '\r' || r == '\n' || r == '\t':
			b = append(b, r)
		case r < 0x20 || r == utf8.RuneError && n == 1:
			return "", "", false
		default:
			b = append(b, r)
		}
		i += n
	}
	return "", "", false
}

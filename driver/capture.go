package driver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/yume-cli/yume-cli/heuristics"
)

// capture collects what a program printed after an approval: the tool's
// output. It keeps a head and a tail within limit bytes so a command that
// prints gigabytes costs constant memory; the middle is counted, not kept.
type capture struct {
	id      string
	input   map[string]any
	mark    uint64 // absolute line number of the first captured line
	limit   int
	head    strings.Builder
	tail    []string // ring of the newest lines once head is full
	tailAt  int
	tailLen int
	omitted int            // bytes dropped between head and tail
	echo    *regexp.Regexp // the program's echo of an answer, dropped before output starts
	started bool
	// folded is the most of the output a result rule read from a view that
	// folds part of it away ("… +4 lines (ctrl+o to expand)"): the
	// tool_result unless a view that shows it all comes before the turn
	// moves on.
	folded *heuristics.Detection
	// tui: the question was a dialog a TUI drew (read by its shape), so
	// the output is read where its transcript shows the call (echoOutput),
	// from every line since the answer, not from the rows under the
	// dialog: those are its layout (input box, status line, the model's
	// answer). command is the call's command; shown the text read.
	tui     bool
	command string
	shown   *string
	asked   *heuristics.Detection // the dialog answered: its own rows are no output
	// askedRows are the rows that dialog was drawn on: a clear retires
	// them with everything else, and they are no output either.
	askedRows map[string]bool
	// wrappedRows are the retired lines the terminal wrapped on to the
	// next row (by text, at most maxWrappedRows): where an echoed command
	// goes on, though a wrap fell on a space.
	wrappedRows map[string]bool
	// best is the most output a screen showed under the call while the
	// capture ran (a TUI may collapse it once the command ends), hidden
	// the lines its fold marker said it hid.
	best       string
	bestHidden int
}

func newCapture(id string, input map[string]any, mark uint64, limit int, echo *regexp.Regexp) *capture {
	return &capture{id: id, input: input, mark: mark, limit: limit, echo: echo}
}

// add appends one finished line; blank and echo lines before the first
// real line are not output.
func (c *capture) add(line string) {
	if !c.started {
		if strings.TrimSpace(line) == "" || c.echo != nil && c.echo.MatchString(line) {
			return
		}
		c.started = true
	}
	if c.tail == nil && c.head.Len()+len(line)+1 <= c.limit/2 { // the head closes for good once full
		c.head.WriteString(line)
		c.head.WriteByte('\n')
		return
	}
	if c.tail == nil {
		c.tail = make([]string, 0, 64)
	}
	c.tail = append(c.tail, line)
	c.tailLen += len(line) + 1
	for c.tailLen > c.limit/2 && c.tailAt < len(c.tail) {
		c.tailLen -= len(c.tail[c.tailAt]) + 1
		c.omitted += len(c.tail[c.tailAt]) + 1
		c.tail[c.tailAt] = ""
		c.tailAt++
	}
	if c.tailAt > 1024 && c.tailAt*2 > len(c.tail) { // compact the ring
		c.tail = append(c.tail[:0], c.tail[c.tailAt:]...)
		c.tailAt = 0
	}
}

// text is the captured output with trailing blank lines trimmed; where
// nothing was captured, the folded output a result rule read.
func (c *capture) text() string {
	if c.shown != nil {
		return *c.shown
	}
	return c.retiredText()
}

// retiredText is what the capture kept of the lines that left the screen.
func (c *capture) retiredText() string {
	if c.head.Len() == 0 && c.tail == nil && c.folded != nil {
		return foldedText(c.folded)
	}
	var b strings.Builder
	b.WriteString(c.head.String())
	if c.omitted > 0 {
		fmt.Fprintf(&b, "… [yume-cli: %d bytes of output omitted] …\n", c.omitted)
	}
	for _, l := range c.tail[c.tailAt:] {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), " \n")
}

// startCapture begins collecting a command's output. Lines leaving the
// screen are turned into text only while a capture runs: the screen's hot
// path stays free of it otherwise.
func (d *driver) startCapture(c *capture) {
	d.to(stateCapturing, "capturing the output of "+c.id)
	d.t.capture = c
	d.at[timerTool] = d.now() + d.cfg.ToolTimeout
	if !d.screenResults {
		d.screen.OnRetire(d.onRetire)
	}
}

// stopCapture detaches the capture; to() calls it when capturing ends.
func (d *driver) stopCapture() *capture {
	c := d.t.capture
	d.t.capture, d.at[timerTool] = nil, 0
	d.screen.OnRetire(nil)
	return c
}

// onRetire receives every line that leaves the visible screen, in order;
// Retired already counts it.
func (d *driver) onRetire(line string, wrapped bool) {
	if c := d.t.capture; c != nil && d.screen.Retired()-1 >= c.mark {
		c.add(line)
		if wrapped && c.tui && len(c.wrappedRows) < maxWrappedRows {
			if c.wrappedRows == nil {
				c.wrappedRows = map[string]bool{}
			}
			c.wrappedRows[line] = true
		}
	}
}

// maxWrappedRows bounds what a TUI's capture remembers of wrapped lines
// during a flood: an echo is read near the answer, not thousands of rows on.
const maxWrappedRows = 4096

// endCapture emits the captured output as the tool_result; the visible part
// stops before the rows of det (the next question), or at the screen's end.
// The caller moves the state on.
func (d *driver) endCapture(det *heuristics.Detection) {
	if c := d.finishCapture(det); c != nil {
		text := c.text()
		if text == "" && d.screenResults { // no result rule fired
			text = d.noOutputText()
		}
		d.emitErr(d.out.ToolResult(c.id, text, false))
	}
}

// finishCapture detaches the capture and adds the visible rows it covers.
func (d *driver) finishCapture(det *heuristics.Detection) *capture {
	if d.t.capture == nil {
		return nil
	}
	c := d.stopCapture()
	if d.screenResults {
		return c // a TUI's rows are its layout, not the output
	}
	end := d.screen.Rows()
	if det != nil {
		if rows := visibleRows(det.Rows); len(rows) > 0 {
			end = rows[0]
		}
	}
	if c.tui {
		d.echoOutput(c, end)
		return c
	}
	for r := 0; r < end; r++ {
		if d.screen.Retired()+uint64(r) >= c.mark {
			c.add(d.screen.Line(r))
		}
	}
	return c
}

// notDrawn is the tool_result of an approved command whose TUI never drew
// its output (it collapsed it, or never showed the call again): nothing
// on screen says what it printed.
const notDrawn = "(yume-cli: the program did not show this command's output on screen; what it printed is not known)"

// watchOutput reads, while a TUI's command runs, the output its settled
// screens show under the call, and keeps the most any of them showed (a
// frame half drawn is no screen a person saw).
func (d *driver) watchOutput(settled bool) {
	c := d.t.capture
	if c == nil || !c.tui || !settled || d.screen.Synchronized() {
		return
	}
	if c.stillAsked(d) {
		return // the dialog is still drawn: its command box is not the call's row
	}
	d.readEcho(c, d.screen.Rows())
}

// readEcho reads c's output under the TUI's own row for the call, in the
// lines retired since the answer and the visible rows above end, and
// keeps it if it shows more than any screen before.
func (d *driver) readEcho(c *capture, end int) {
	var lines []string
	var wrapped []bool
	for _, l := range strings.Split(strings.TrimRight(c.retiredText(), "\n"), "\n") {
		if !c.askedRows[l] {
			lines, wrapped = append(lines, l), append(wrapped, c.wrappedRows[l])
		}
	}
	for r := 0; r < end; r++ {
		lines, wrapped = append(lines, d.screen.Line(r)), append(wrapped, d.screen.Wrapped(r))
	}
	out, hidden, found := heuristics.OutputAfterEcho(lines, func(i int) bool { return wrapped[i] }, c.command, d.screen.Cols())
	if found && outputLines(out) >= outputLines(c.best) { // a later screen wins a tie: "Executing..." gives way to the output
		c.best, c.bestHidden = out, hidden
	}
}

// stillAsked reports that the screen still shows the dialog c's command
// was approved at, its highlight moved or not: what it draws is no output.
func (c *capture) stillAsked(d *driver) bool {
	if c.asked == nil {
		return false
	}
	if d.engine.StillShows(d.screen, c.asked) {
		return true
	}
	dl, _ := heuristics.FindDialog(d.screen)
	return dl != nil && c.asked.Dialog != nil && slicesEqual(dl.Options, c.asked.Dialog.Options)
}

// echoOutput settles a TUI's output of c's command: the most a screen
// showed under the call, or that none showed any.
func (d *driver) echoOutput(c *capture, end int) {
	if !c.stillAsked(d) {
		d.readEcho(c, end)
	}
	out := c.best
	switch {
	case strings.TrimSpace(out) == "":
		out = notDrawn
	case c.bestHidden != 0:
		out = foldedText(&heuristics.Detection{Output: out, Hidden: c.bestHidden})
	}
	d.tr.state(fmt.Sprintf("the output of %s, read under the TUI's own row for the call: %d line(s)", c.id, outputLines(c.best)))
	c.shown = &out
}

// noOutput is the tool_result of an approved command whose output the TUI
// did not show before its turn ended.
const noOutput = "(the program showed no output for this command)"

// readsResults reports whether the profile reads command output from the
// screen (a result rule) instead of from retired lines.
func readsResults(p *heuristics.Profile) bool {
	for _, r := range p.Rules {
		if r.Kind == heuristics.KindResult {
			return true
		}
	}
	return false
}

// result ends the capture with the output a result rule read. Output the
// program drew folded (a marker says it hid lines) is kept instead, until
// a view that shows more of it (Ctrl-O: Claude Code's transcript,
// Copilot's unfolded rows) or the turn's next step ends the capture: the
// most a screen showed is the tool_result.
func (d *driver) result(det *heuristics.Detection) {
	if d.st != stateCapturing {
		return // not after an approval: an old block still on screen
	}
	if d.logFound() && d.logHas(d.t.capture.id) {
		d.tr.state("a result rule fired; the output comes from the provider's transcript")
		return
	}
	c := d.t.capture
	if shows := outputLines(det.Output); c.folded != nil && outputLines(c.folded.Output) > shows {
		det = c.folded // an earlier view showed more
	}
	if det.Hidden != 0 {
		c.folded = det
		d.tr.state(fmt.Sprintf("a result rule read %d lines of the output, the program folded the rest: kept until a view shows more or the turn moves on", outputLines(det.Output)))
		return
	}
	c = d.stopCapture()
	for _, l := range strings.Split(det.Output, "\n") {
		c.add(l)
	}
	text := c.text()
	if text == "" {
		text = d.noOutputText()
	}
	d.toIdle("the output of " + c.id + " is shown")
	d.emitErr(d.out.ToolResult(c.id, text, false))
}

// outputLines counts the lines of output a result rule read.
func outputLines(s string) int {
	if strings.TrimSpace(s) == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

// foldedText is output read from a folded view, with a note of what the
// program did not show.
func foldedText(det *heuristics.Detection) string {
	out := strings.TrimRight(det.Output, "\n")
	note := "[yume-cli: the program showed only part of this output]"
	if det.Hidden > 0 {
		note = fmt.Sprintf("[yume-cli: the program did not show %d more lines of this output]", det.Hidden)
	}
	if out == "" {
		return note
	}
	return out + "\n" + note
}

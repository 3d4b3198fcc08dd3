// Package tracepage writes the page `yume-cli replay --html` makes: one
// self-contained HTML file with the recording played back as a terminal
// (asciinema-player, vendored under player/) and, under it, a timeline of
// the trace (docs/trace.md) and of the stream's tool_use and tool_result
// events. Clicking an entry seeks the player there and shows the screen of
// that moment, the rows the firing rule matched and the why-not of the
// rules that missed. Everything is inlined: the page opens offline.
package tracepage

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/recordings"
)

var (
	//go:embed player/asciinema-player.min.js
	playerJS string
	//go:embed player/asciinema-player.css
	playerCSS string
	//go:embed page.js
	pageJS string
	//go:embed page.css
	pageCSS string
)

// Page is what the page shows.
type Page struct {
	Title string // the recording's name
	// About says where the trace came from, in words ("trace: this
	// replay, with the claude profile").
	About string
	Cast  []byte            // the recording, as its file holds it
	Trace []json.RawMessage // the trace lines, in the order written
	Tools []Tool            // the stream's tool_use and tool_result events
	// ShiftMS is added to the trace's times to put them on the
	// recording's clock (ClockShift); Live says the trace is a live run's.
	ShiftMS float64
	Live    bool
}

// Tool is a tool_use or tool_result event of the stream, with the time of
// the trace line written before it (the decision that led to it).
type Tool struct {
	TMS float64 `json:"t_ms"`
	// After is how many trace lines were written before it, which places
	// it among the lines of its time; -1: another trace, placed by time.
	After   int             `json:"after"`
	Kind    string          `json:"kind"` // tool_use or tool_result
	ID      string          `json:"id"`
	Name    string          `json:"name,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	Content string          `json:"content,omitempty"`
	IsError bool            `json:"is_error,omitempty"`
}

// Write writes the page as one HTML document.
func (p *Page) Write(w io.Writer) error {
	trace := p.Trace
	if trace == nil {
		trace = []json.RawMessage{}
	}
	tools := p.Tools
	if tools == nil {
		tools = []Tool{}
	}
	// json.Marshal escapes <, > and &: the data cannot end its script tag.
	data, err := json.Marshal(struct {
		Title   string            `json:"title"`
		About   string            `json:"about"`
		Cast    string            `json:"cast"`
		Trace   []json.RawMessage `json:"trace"`
		Tools   []Tool            `json:"tools"`
		ShiftMS float64           `json:"shift_ms"`
		Live    bool              `json:"live"`
	}{p.Title, p.About, string(p.Cast), trace, tools, p.ShiftMS, p.Live})
	if err != nil {
		return fmt.Errorf("html page: %w", err)
	}
	title := html.EscapeString(p.Title)
	var b strings.Builder
	b.Grow(len(data) + len(playerJS) + 64<<10)
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src data:; font-src data:\">\n")
	b.WriteString("<title>" + title + " · yume-cli trace</title>\n")
	b.WriteString("<style>\n" + playerCSS + "\n</style>\n<style>\n" + pageCSS + "</style>\n</head>\n<body>\n")
	b.WriteString("<header><h1>" + title + "</h1><p id=\"about\"></p></header>\n")
	b.WriteString("<div id=\"player\"></div>\n")
	b.WriteString("<main><section id=\"timeline\"><div id=\"filters\"></div><ol id=\"entries\"></ol></section>\n")
	b.WriteString("<section id=\"detail\"><p class=\"hint\">Click an entry of the timeline: the player goes there, and its screen shows here.</p></section></main>\n")
	b.WriteString("<script type=\"application/json\" id=\"data\">")
	b.Write(data)
	b.WriteString("</script>\n<script>\n" + playerJS + "\n</script>\n<script>\n" + pageJS + "</script>\n</body>\n</html>\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// ReadTrace reads a trace file (--trace-file of a live run): one JSON
// object per line, each with its t_ms and event.
func ReadTrace(r io.Reader) ([]json.RawMessage, error) {
	out := []json.RawMessage{} // not nil: an empty trace is a trace
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var head struct {
			TMS   *float64 `json:"t_ms"`
			Event string   `json:"event"`
		}
		if err := json.Unmarshal(line, &head); err != nil || head.TMS == nil || head.Event == "" {
			return nil, fmt.Errorf("line %d is not a trace line (a JSON object with t_ms and event, docs/trace.md)", n)
		}
		out = append(out, json.RawMessage(bytes.Clone(line)))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Collector gathers what a replay writes, trace and stream, in the order it
// is written, so that each stream event takes the time of the trace line
// written before it.
type Collector struct {
	mu    sync.Mutex
	now   float64 // t_ms of the last trace line
	trace []json.RawMessage
	tools []Tool
}

// Trace returns a writer for the driver's trace that keeps each line and
// passes it on to tee (nil: nowhere).
func (c *Collector) Trace(tee io.Writer) io.Writer {
	return &lineWriter{tee: tee, each: c.traceLine}
}

// Stream returns a writer for the event stream that keeps its tool_use and
// tool_result events and passes every line on to tee (nil: nowhere).
func (c *Collector) Stream(tee io.Writer) io.Writer {
	return &lineWriter{tee: tee, each: c.streamLine}
}

// Page is the page of what c gathered, for the recording cast. A trace
// given (not nil: a live run's --trace-file) is shown instead of the one
// gathered, its times shifted onto the recording's clock (ClockShift); the
// tool events, the replay's, are then placed by time alone.
func (c *Collector) Page(title, about string, cast []byte, trace []json.RawMessage) *Page {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := &Page{Title: title, About: about, Cast: cast, Trace: trace, Tools: append([]Tool(nil), c.tools...)}
	if trace == nil {
		p.Trace = append([]json.RawMessage(nil), c.trace...)
		return p
	}
	for i := range p.Tools {
		p.Tools[i].After = -1
	}
	p.Live = true
	if rec, err := recordings.Read(bytes.NewReader(cast)); err == nil {
		p.ShiftMS = ClockShift(rec, trace)
	}
	return p
}

// ClockShift is how many milliseconds to add to the times of a live run's
// trace to put them on its recording's clock: the trace counts from when
// the driver started, the recording from when the program did. Each keys
// line is paired, in order, with the next recorded input of the same
// bytes (the recording took them as they were typed); when the pairs lie
// the same distance apart (within 20 ms) the first pair's is the shift.
// With no pair, or pairs that disagree (not this recording's run), 0.
func ClockShift(cast *recordings.Cast, trace []json.RawMessage) float64 {
	var inputs []recordings.Event
	for _, e := range cast.Events {
		if e.Code == recordings.CodeInput {
			inputs = append(inputs, e)
		}
	}
	var shifts []float64
	next := 0
	for _, line := range trace {
		var l struct {
			TMS   float64 `json:"t_ms"`
			Event string  `json:"event"`
			Keys  string  `json:"keys"`
		}
		if json.Unmarshal(line, &l) != nil || l.Event != "keys" || l.Keys == "" {
			continue
		}
		for i := next; i < len(inputs); i++ {
			if inputs[i].Data == l.Keys {
				shifts = append(shifts, float64(inputs[i].Time.Microseconds())/1000-l.TMS)
				next = i + 1
				break
			}
		}
	}
	if len(shifts) == 0 || slices.Max(shifts)-slices.Min(shifts) > 20 {
		return 0
	}
	return math.Round(shifts[0]*1000) / 1000
}

func (c *Collector) traceLine(line []byte) {
	var head struct {
		TMS float64 `json:"t_ms"`
	}
	if json.Unmarshal(line, &head) != nil {
		return // not a trace line: nothing the page can show
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.trace = append(c.trace, json.RawMessage(bytes.Clone(line)))
	c.now = head.TMS
}

func (c *Collector) streamLine(line []byte) {
	tools := toolsOf(line)
	if len(tools) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range tools {
		t.TMS, t.After = c.now, len(c.trace)
		c.tools = append(c.tools, t)
	}
}

// toolsOf reads the tool events of one stream line, in either protocol.
func toolsOf(line []byte) []Tool {
	var ev struct {
		emit.Block // a whole line of the flat protocol
		Message    struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &ev) != nil {
		return nil
	}
	blocks := []emit.Block{ev.Block}
	if ev.Type == "assistant" || ev.Type == "user" {
		blocks = nil
		_ = json.Unmarshal(ev.Message.Content, &blocks) // a string content holds no tool
	}
	var out []Tool
	for _, b := range blocks {
		switch b.Type {
		case "tool_use":
			out = append(out, Tool{Kind: b.Type, ID: b.ID, Name: b.Name, Input: b.Input})
		case "tool_result":
			var content string
			if json.Unmarshal(b.Content, &content) != nil {
				content = string(b.Content) // not a string: shown as its JSON
			}
			out = append(out, Tool{Kind: b.Type, ID: b.ToolUseID, Content: content, IsError: b.IsError})
		}
	}
	return out
}

// lineWriter passes writes on to tee and hands each whole line to each.
type lineWriter struct {
	mu   sync.Mutex
	tee  io.Writer
	each func([]byte)
	buf  []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := len(p), error(nil)
	if w.tee != nil {
		n, err = w.tee.Write(p)
	}
	w.buf = append(w.buf, p[:n]...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		if line := bytes.TrimSpace(w.buf[:i]); len(line) > 0 {
			w.each(line)
		}
		w.buf = w.buf[i+1:]
	}
	return n, err
}

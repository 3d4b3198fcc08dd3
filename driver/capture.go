package driver

import (
	"fmt"
	"regexp"
	"strings"
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

// text is the captured output with trailing blank lines trimmed.
func (c *capture) text() string {
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

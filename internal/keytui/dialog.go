package keytui

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// tui is the dialog in raw mode.
type tui struct {
	c    config
	hi   int
	keys <-chan read
	// drawn is when the last frame was finished (drop mode).
	drawn time.Time
	// out is held while a frame or the spinner is written.
	out sync.Mutex
}

// spin turns the spinner on the top row every d until stop is closed.
func (t *tui) spin(d time.Duration, stop <-chan struct{}) {
	tick := time.NewTicker(d)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		t.out.Lock()
		select {
		case <-stop: // the dialog closed while this turn waited
		default:
			fmt.Printf("\x1b7\x1b[1;40H%c Working\x1b8", []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")[i%10])
		}
		t.out.Unlock()
	}
}

// run draws the dialog and answers keys until an option is chosen, then
// idles until Ctrl-C twice.
func (t *tui) run() int {
	fmt.Print("\x1b[?1049h")
	t.draw()
	stop := make(chan struct{})
	if t.c.animate > 0 {
		go t.spin(t.c.animate, stop)
	}
	for r := range t.keys {
		if t.c.read == "drop" && r.at.Sub(t.drawn) < t.c.dropFor {
			continue // it was still drawing: the keys are lost
		}
		keys := r.keys
		if t.c.read == "ink" && len(keys) > 1 {
			keys = misread(keys)
		}
		for _, k := range keys {
			if chosen, done := t.key(k); done {
				close(stop)
				return t.end(chosen)
			}
		}
	}
	return 1
}

// misread is what Ink made of a read holding several keys: the arrows
// are lost; an Enter still chooses.
func misread(keys []string) []string {
	for _, k := range keys {
		if k == "enter" {
			return []string{"enter"}
		}
	}
	return nil
}

// key acts on one key; done once an option is chosen (-1: cancelled).
func (t *tui) key(k string) (chosen int, done bool) {
	n := len(t.c.options)
	if t.c.layout == "yn" {
		switch strings.ToLower(k) {
		case "y":
			return 0, true
		case "n", "esc", "enter":
			return 1, true
		}
		return 0, false
	}
	if t.c.delay > 0 {
		time.Sleep(t.c.delay) // The test's slow program: its effect is drawn late.
	}
	switch {
	case k == "enter":
		return t.hi, true
	case k == "esc", k == "ctrl-c":
		return -1, true
	case k == "down" && t.c.layout != "horizontal", k == "right" && t.c.layout == "horizontal", k == "tab":
		t.hi = min(t.hi+1, n-1)
	case k == "up" && t.c.layout != "horizontal", k == "left" && t.c.layout == "horizontal", k == "shift-tab":
		t.hi = max(t.hi-1, 0)
	case t.c.digits && len(k) == 1 && k[0] >= '1' && int(k[0]-'1') < n:
		return int(k[0] - '1'), true
	default:
		return 0, false
	}
	t.draw()
	return 0, false
}

// end says what was chosen, runs the command if it allowed, and idles.
func (t *tui) end(chosen int) int {
	allowed := chosen >= 0 && allows(t.c.options[chosen])
	t.out.Lock() // the spinner stopped: it draws no more
	fmt.Print("\x1b[H\x1b[2J")
	finish(t.c, allowed, os.Stdout)
	t.out.Unlock()
	ctrlC := 0
	for r := range t.keys {
		for _, k := range r.keys {
			if k == "ctrl-c" {
				if ctrlC++; ctrlC == 2 {
					fmt.Print("\x1b[?1049l")
					return 0
				}
			}
		}
	}
	return 0
}

// allows reads an option's words as a person does.
func allows(option string) bool {
	o := strings.ToLower(strings.TrimLeft(option, "0123456789. "))
	return o == "y" || strings.HasPrefix(o, "yes") || strings.HasPrefix(o, "allow")
}

// draw paints the whole dialog.
func (t *tui) draw() {
	t.out.Lock()
	defer t.out.Unlock()
	rows := []string{"\x1b[H\x1b[2J* Asked.", ""}
	if t.c.animate > 0 {
		// As in Claude Code: the spinner is above a rule, the dialog below.
		rows = append(rows, strings.Repeat("─", 60))
	}
	switch t.c.layout {
	case "custom":
		rows = append(rows, splitRows(t.c.above)...)
		for i, o := range t.c.options {
			rows = append(rows, t.framed(t.option(i, o, t.c.pointer)))
		}
		rows = append(rows, splitRows(t.c.below)...)
	case "yn":
		rows = append(rows, fmt.Sprintf("Run `%s`? [y/n] ", t.c.cmd))
	case "horizontal":
		rows = append(rows, " Permission required: Bash", "   $ "+t.c.cmd, "", " Allow this command?", " "+t.row())
	case "boxed":
		w := 56
		rows = append(rows, "╭"+strings.Repeat("─", w)+"╮", boxed(" ? Shell "+t.c.cmd, w), boxed("", w), boxed(" Allow execution of [Shell]?", w))
		for i, o := range t.c.options {
			rows = append(rows, boxed(t.option(i, o, "● "), w))
		}
		rows = append(rows, "╰"+strings.Repeat("─", w)+"╯")
	case "choices":
		rows = append(rows, "? Run `"+t.c.cmd+"`?")
		for i, o := range t.c.options {
			rows = append(rows, t.option(i, o, "❯ "))
		}
	default:
		rows = append(rows, " Bash command", "", "   "+t.c.cmd, "", " Do you want to proceed?")
		for i, o := range t.c.options {
			rows = append(rows, " "+t.option(i, o, "❯ "))
		}
		rows = append(rows, "", " Esc to cancel")
	}
	for i, r := range rows {
		if i > 0 && t.c.slow > 0 {
			time.Sleep(t.c.slow) // The test's slow program: a frame in pieces.
		}
		end := "\r\n"
		if i == len(rows)-1 {
			end = ""
		}
		fmt.Print(r + end)
	}
	t.drawn = time.Now()
}

// option draws option i, highlighted as the style says.
func (t *tui) option(i int, o, pointer string) string {
	pad := strings.Repeat(" ", len([]rune(pointer)))
	if i != t.hi {
		return pad + o
	}
	switch t.c.style {
	case "reverse":
		return pad + "\x1b[7m" + o + "\x1b[0m"
	case "color":
		return pad + "\x1b[1;34m" + o + "\x1b[0m"
	}
	return pointer + o
}

// splitRows splits a flag's rows ("" is none).
func splitRows(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// framed puts an option row in the custom frame, padded to its width.
func (t *tui) framed(s string) string {
	parts := strings.Split(t.c.frame, "|")
	if len(parts) != 3 {
		return s
	}
	var w int
	_, _ = fmt.Sscan(parts[2], &w) // A bad width pads nothing.
	pad := w - len([]rune(stripSGR(s)))
	return parts[0] + s + strings.Repeat(" ", max(pad, 0)) + parts[1]
}

// row draws the options on one row, the highlight in reverse video.
func (t *tui) row() string {
	var b strings.Builder
	for i, o := range t.c.options {
		if i > 0 {
			b.WriteString("   ")
		}
		if i == t.hi {
			b.WriteString("\x1b[7m" + o + "\x1b[0m")
		} else {
			b.WriteString(o)
		}
	}
	return b.String()
}

// boxed frames a row of width w.
func boxed(s string, w int) string {
	pad := w - len([]rune(stripSGR(s)))
	return "│" + s + strings.Repeat(" ", max(pad, 0)) + "│"
}

// stripSGR drops colour sequences, for widths.
func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

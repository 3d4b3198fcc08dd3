package providers

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Instructed is p with text given to its program as an instruction on
// every command line it starts (TUI, JSON, ACP), where it takes one
// (Instructions); p itself where it takes none, or text is empty. The
// copy shares everything else with p.
func (p *Provider) Instructed(text string) *Provider {
	if p.Instructions == nil || strings.TrimSpace(text) == "" {
		return p
	}
	c := *p
	front := func(args []string) []string { return append(p.Instructions(text), args...) }
	c.Structured = slices.Clone(p.Structured)
	for i, m := range c.Structured {
		command := m.Command
		c.Structured[i].Command = func(r Request) Invocation {
			inv := command(r)
			inv.Args = front(inv.Args)
			return inv
		}
	}
	if p.TUI != nil {
		tui := *p.TUI
		args := p.TUI.Args
		tui.Args = func(l Launch) ([]string, error) {
			a, err := args(l)
			if err != nil {
				return nil, err
			}
			return front(a), nil
		}
		c.TUI = &tui
	}
	return &c
}

// tomlString is s as a TOML basic string, for a config override
// (codex -c key=VALUE reads VALUE as TOML).
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
			b.WriteString(`\u` + strings.Repeat("0", 4-len(strconv.FormatInt(int64(r), 16))) + strconv.FormatInt(int64(r), 16))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

package emit

import (
	"fmt"
	"strings"
)

// Protocol selects the shapes Writer emits for text, tool use and tool
// results. Both parse in Yume; the other event types are the same in both.
type Protocol string

const (
	// Claude emits the shapes Claude Code prints: assistant and user
	// messages carrying text, tool_use and tool_result content blocks.
	Claude Protocol = "claude"
	// Flat emits the flat events {"type":"text"}, {"type":"tool_use"} and
	// {"type":"tool_result"}.
	Flat Protocol = "flat"
)

// ParseProtocol parses a --protocol-version value. Case and surrounding
// blanks are ignored; the empty string means Claude.
func ParseProtocol(s string) (Protocol, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", string(Claude):
		return Claude, nil
	case string(Flat):
		return Flat, nil
	}
	return "", fmt.Errorf("unknown protocol version %q: use %q (the default) or %q", s, Claude, Flat)
}

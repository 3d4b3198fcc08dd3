package structured

import (
	"github.com/yume-cli/yume-cli/providers"
	"github.com/yume-cli/yume-cli/transcript"
)

// reportSideCalls makes the turn report, just before its result (after
// any other before-end step), the calls the provider's side requests made
// in its session, which its stream never shows (providers.SideCalls:
// Qwen Code's managed memory agents). launch says where its record is,
// asked at the end (the provider's session id is known by then).
func (t *turn) reportSideCalls(launch func() providers.Launch) {
	before := t.beforeEnd
	t.beforeEnd = func() error {
		if before != nil {
			if err := before(); err != nil {
				return err
			}
		}
		l := launch()
		l.Session = t.providerSession
		return t.sideCalls(providers.SideCalls(t.provider, l))
	}
}

// sideCalls writes each side call's tool_use and tool_result.
func (t *turn) sideCalls(evs []transcript.Event) error {
	for _, e := range evs {
		var err error
		switch e.Kind {
		case transcript.ToolCall:
			err = t.toolUse(e.ID, e.Name, e.Input)
		case transcript.ToolResult:
			err = t.toolResult(e.ID, e.Output, e.IsError)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

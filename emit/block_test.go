package emit_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/yume-cli/yume-cli/emit"
)

// TestBlockReads: a content block as Claude Code and yume-cli write it,
// read back: the input as an object, the content as a string where it is
// one.
func TestBlockReads(t *testing.T) {
	for _, c := range []struct {
		name, line string
		input      map[string]any
		content    string
		isString   bool
	}{
		{"tool_use", `{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}`, map[string]any{"command": "ls"}, "", false},
		{"input not an object", `{"type":"tool_use","input":"ls"}`, nil, "", false},
		{"tool_result text", `{"type":"tool_result","tool_use_id":"toolu_1","content":"a\nb","is_error":true}`, nil, "a\nb", true},
		{"tool_result blocks", `{"type":"tool_result","content":[{"type":"text","text":"a"}]}`, nil, "", false},
		{"escaped", `{"type":"tool_result","content":"\u00e9\"x\""}`, nil, "é\"x\"", true},
		{"no content", `{"type":"text","text":"hi"}`, nil, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b emit.Block
			if err := json.Unmarshal([]byte(c.line), &b); err != nil {
				t.Fatal(err)
			}
			if got := b.InputObject(); !reflect.DeepEqual(got, c.input) {
				t.Errorf("InputObject = %v, want %v", got, c.input)
			}
			if got, ok := b.ContentString(); got != c.content || ok != c.isString {
				t.Errorf("ContentString = %q, %v; want %q, %v", got, ok, c.content, c.isString)
			}
		})
	}
}

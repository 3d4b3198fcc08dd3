package emit

import (
	"bytes"
	"encoding/json"
	"testing"
)

// trickyStrings exercise every escaping rule of encoding/json.
var trickyStrings = []string{
	"",
	"plain text",
	`quote " backslash \ slash /`,
	"\b\f\n\r\t\x00\x01\x1f\x7f",
	"<html> & 'single'",
	"line\u2028sep\u2029par",
	"caf\u00e9 \u65e5\u672c \U0001F600",
	"bad \xff\xfe bytes \xc3",
	"cut rune \xe6\x97",
	"\xed\xa0\x80 surrogate",
}

// TestAppendersMatchEncodingJSON guards the hand-written encoders: each
// must write byte for byte what encoding/json writes for the same value.
func TestAppendersMatchEncodingJSON(t *testing.T) {
	null := (*string)(nil)
	stop := "end_turn"
	inputs := []any{
		nil,
		struct{}{},
		map[string]any{"command": "go test ./...", "n": 3, "z": []any{true, nil}},
		map[string]string{"b": "<b>", "a": "x\u2028"},
		json.RawMessage(`{ "command" : "ls",  "deep": [1, 2] }`),
		json.RawMessage(nil),
	}
	var events []any
	for _, s := range trickyStrings {
		events = append(events,
			messageLine{head{"assistant"}, assistantMessage{ID: "msg_" + s, Type: "message", Role: "assistant", Model: s,
				Content: []any{textBlock{"text", s}}, StopReason: &stop, Usage: &Usage{-1, 2, 3, 4}}, null, s, s},
			messageLine{head{"assistant"}, assistantMessage{ID: s, Content: []any{textBlock{"text", s}}}, null, s, s},
			messageLine{head{"user"}, userMessage{Role: "user", Content: []toolResultBlock{{"tool_result", s, s, true}, {"tool_result", "b", "", false}}}, null, s, s},
			messageLine{head{"user"}, userMessage{Role: "user"}, &stop, s, s},
			assistantMessage{Content: nil},
			textLine{head{"text"}, s, s},
			toolResultLine{head{"tool_result"}, s, s, true, s},
			usageLine{head{"usage"}, 12, -3, s},
			bareLine{head{s}, s},
			systemLine{head{"system"}, "notice", s, s, s},
		)
		for _, in := range inputs {
			events = append(events,
				toolUseLine{head{"tool_use"}, s, s, in, s},
				messageLine{head{"assistant"}, assistantMessage{Content: []any{toolUseBlock{"tool_use", s, s, in}}}, null, s, s},
			)
		}
	}
	for i, ev := range events {
		want, wantErr := reflectMarshal(ev)
		got, gotErr := appendLine([]byte("prefix"), ev)
		if (wantErr != nil) != (gotErr != nil) {
			t.Fatalf("event %d (%T): error %v, encoding/json says %v", i, ev, gotErr, wantErr)
		}
		if !bytes.Equal(got[len("prefix"):], want) {
			t.Errorf("event %d (%T):\n got %s\nwant %s", i, ev, got[len("prefix"):], want)
		}
	}
}

// TestAppendLineFallsBack checks that a value the appenders cannot encode
// reports encoding/json's error, as before they existed.
func TestAppendLineFallsBack(t *testing.T) {
	tests := []struct {
		name string
		ev   any
	}{
		{"bad raw input", toolUseLine{head{"tool_use"}, "id", "X", json.RawMessage(`{"a":`), "u"}},
		{"unencodable input", toolUseLine{head{"tool_use"}, "id", "X", map[string]any{"f": func() {}}, "u"}},
		{"bad raw in a block", messageLine{head{"assistant"}, assistantMessage{Content: []any{toolUseBlock{"tool_use", "i", "n", json.RawMessage(`nope`)}}}, nil, "s", "u"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, wantErr := reflectMarshal(tt.ev)
			_, err := appendLine(nil, tt.ev)
			if err == nil || wantErr == nil || err.Error() != wantErr.Error() {
				t.Errorf("error %v, want encoding/json's %v", err, wantErr)
			}
		})
	}
}

package emit

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/permission"
)

func TestParseControl(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Control
	}{
		{"yume user", `{"type":"user","content":"fix the tests"}`, Control{Kind: ControlUser, Text: "fix the tests"}},
		{"user blocks", `{"type":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`, Control{Kind: ControlUser, Text: "a\nb"}},
		{"claude user message", `{"type":"user","message":{"role":"user","content":"hi"}}`, Control{Kind: ControlUser, Text: "hi"}},
		{"claude user message blocks", `{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"session_id":"x"}`, Control{Kind: ControlUser, Text: "hi"}},
		{"surrounding blanks", " \t{\"type\":\"interrupt\"}\r\n", Control{Kind: ControlInterrupt}},
		{"approve", `{"type":"tool_approval","id":"toolu_1","approved":true}`, Control{Kind: ControlApproval, ToolUseID: "toolu_1", Approved: true}},
		{"deny with message", `{"type":"tool_approval","id":"toolu_1","approved":false,"message":"not now"}`, Control{Kind: ControlApproval, ToolUseID: "toolu_1", Message: "not now"}},
		{"interrupt", `{"type":"interrupt"}`, Control{Kind: ControlInterrupt}},
		{"set mode", `{"type":"set_permission_mode","mode":"auto"}`, Control{Kind: ControlSetMode, Mode: "auto"}},
		{"set mode interactive", `{"type":"set_permission_mode","mode":"interactive"}`, Control{Kind: ControlSetMode, Mode: "interactive"}},
		{"sdk allow", `{"type":"control_response","response":{"subtype":"success","request_id":"req_1","response":{"behavior":"allow","updatedInput":{"command":"ls"}}}}`,
			Control{Kind: ControlApproval, RequestID: "req_1", Approved: true}},
		{"sdk deny", `{"type":"control_response","response":{"subtype":"success","request_id":"req_1","response":{"behavior":"deny","message":"User denied","toolUseID":"toolu_1"}}}`,
			Control{Kind: ControlApproval, RequestID: "req_1", ToolUseID: "toolu_1", Message: "User denied"}},
		{"sdk error response denies", `{"type":"control_response","response":{"subtype":"error","request_id":"req_1","error":"timeout"}}`,
			Control{Kind: ControlApproval, RequestID: "req_1", Message: "the host could not answer the permission request: timeout"}},
		{"sdk interrupt", `{"type":"control_request","request_id":"int-1","request":{"subtype":"interrupt"}}`, Control{Kind: ControlInterrupt, RequestID: "int-1"}},
		{"sdk set mode", `{"type":"control_request","request_id":"pm-1","request":{"subtype":"set_permission_mode","mode":"deny"}}`,
			Control{Kind: ControlSetMode, RequestID: "pm-1", Mode: "deny"}},
		{"unknown fields ignored", `{"type":"interrupt","uuid":"u","extra":[1,2]}`, Control{Kind: ControlInterrupt}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseControl([]byte(tt.in))
			if err != nil {
				t.Fatalf("ParseControl: %v", err)
			}
			if got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseControlErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not json", `hello`, "not a JSON object"},
		{"truncated", `{"type":"user","content":"x`, "not a JSON object"},
		{"array", `[1,2]`, "not a JSON object"},
		{"null", `null`, `no string "type"`},
		{"no type", `{"content":"x"}`, `no string "type"`},
		{"numeric type", `{"type":5}`, `no string "type"`},
		{"unknown type", `{"type":"bogus"}`, `unknown control frame type "bogus"`},
		{"empty prompt", `{"type":"user","content":"  "}`, "invalid user frame: the prompt is empty"},
		{"user without content", `{"type":"user"}`, `invalid user frame: needs "content"`},
		{"user image block", `{"type":"user","content":[{"type":"image","source":{}}]}`, `content block 1 has type "image"`},
		{"user content number", `{"type":"user","content":5}`, `"content" must be a string or an array`},
		{"assistant role", `{"type":"user","message":{"role":"assistant","content":"x"}}`, `role must be "user"`},
		{"message not object", `{"type":"user","message":"x"}`, `"message" must be an object`},
		{"approval without id", `{"type":"tool_approval","approved":true}`, `invalid tool_approval frame: needs "id"`},
		{"approval without approved", `{"type":"tool_approval","id":"t"}`, `needs "approved"`},
		{"approval string bool", `{"type":"tool_approval","id":"t","approved":"yes"}`, `"approved" must be true or false, got "\"yes\""`},
		{"approval numeric id", `{"type":"tool_approval","id":7,"approved":true}`, `"id" must be a string`},
		{"bad mode", `{"type":"set_permission_mode","mode":"yolo"}`, `mode "yolo" is not one of default, interactive, auto, deny`},
		{"missing mode", `{"type":"set_permission_mode"}`, `needs "mode"`},
		{"response without request id", `{"type":"control_response","response":{"subtype":"success","response":{"behavior":"allow"}}}`, `needs "request_id"`},
		{"response bad behavior", `{"type":"control_response","response":{"subtype":"success","request_id":"r","response":{"behavior":"maybe"}}}`, `behavior must be "allow" or "deny"`},
		{"response without result", `{"type":"control_response","response":{"subtype":"success","request_id":"r"}}`, `needs "response":{"behavior"`},
		{"response bad subtype", `{"type":"control_response","response":{"subtype":"later","request_id":"r"}}`, `subtype must be "success" or "error"`},
		{"response missing", `{"type":"control_response"}`, `needs a "response" object`},
		{"request unsupported", `{"type":"control_request","request_id":"r","request":{"subtype":"set_model"}}`, `request subtype "set_model" is not supported`},
		{"request without request", `{"type":"control_request","request_id":"r"}`, `needs a "request" object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseControl([]byte(tt.in))
			if err == nil {
				t.Fatalf("ParseControl(%s) = %+v, want an error", tt.in, got)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestParseControlEmpty(t *testing.T) {
	for _, in := range []string{"", "  ", "\n", "\r\n"} {
		if _, err := ParseControl([]byte(in)); !errors.Is(err, ErrEmptyControl) {
			t.Errorf("ParseControl(%q) err = %v, want ErrEmptyControl", in, err)
		}
	}
}

func TestParseControlQuotesLongFramesBriefly(t *testing.T) {
	_, err := ParseControl([]byte("not json " + strings.Repeat("x", 10_000)))
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("error should quote the frame briefly, got %d bytes", len(err.Error()))
	}
}

func TestControlKindString(t *testing.T) {
	for k, want := range map[ControlKind]string{ControlUser: "user", ControlApproval: "approval", ControlInterrupt: "interrupt", ControlSetMode: "set_permission_mode", 0: "ControlKind(0)"} {
		if k.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(k), k.String(), want)
		}
	}
}

func FuzzParseControl(f *testing.F) {
	for _, s := range []string{
		`{"type":"user","content":"x"}`, `{"type":"tool_approval","id":"t","approved":true}`,
		`{"type":"interrupt"}`, `{"type":"set_permission_mode","mode":"auto"}`,
		`{"type":"control_response","response":{"subtype":"success","request_id":"r","response":{"behavior":"allow"}}}`,
		`{"type":"control_request","request_id":"r","request":{"subtype":"interrupt"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}`, `[`, `null`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		c, err := ParseControl(line)
		if err != nil {
			if c != (Control{}) {
				t.Fatalf("error %v came with a non-zero Control %+v", err, c)
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		switch c.Kind {
		case ControlUser:
			if strings.TrimSpace(c.Text) == "" {
				t.Fatal("user frame with empty text accepted")
			}
		case ControlApproval:
			if c.ToolUseID == "" && c.RequestID == "" {
				t.Fatal("approval without tool_use id or request id")
			}
		case ControlSetMode:
			if !slices.Contains(permission.Modes, c.Mode) {
				t.Fatalf("invalid mode %q accepted", c.Mode)
			}
		case ControlInterrupt:
		default:
			t.Fatalf("unknown kind %v", c.Kind)
		}
	})
}

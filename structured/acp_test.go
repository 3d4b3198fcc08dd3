package structured

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/permission"
)

// replayACP feeds a recorded ACP exchange ("< " agent lines, "> " our
// lines) through the ACP translator: updates as they came, permission
// requests decided as they were recorded, and the prompt's stop reason.
func replayACP(t *testing.T, provider string, rec []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w := emit.NewWriter(&out, emit.Config{SessionID: "sess-test", Model: "test-model", Cwd: "/ws",
		Now: func() time.Time { clock = clock.Add(time.Millisecond); return clock }})
	tr := &acpTranslator{turn: newTurn(w, prov(provider), "default")}
	var msgs []acpMessage
	var ours []bool
	sc := bufio.NewScanner(bytes.NewReader(rec))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		var m acpMessage
		if err := json.Unmarshal([]byte(line[2:]), &m); err != nil {
			t.Fatalf("bad recorded line %q: %v", line, err)
		}
		msgs = append(msgs, m)
		ours = append(ours, strings.HasPrefix(line, "> "))
	}
	promptID := ""
	for i, m := range msgs {
		switch {
		case ours[i] && m.Method == "session/prompt":
			promptID = string(m.ID)
		case !ours[i] && m.Method == "" && string(m.ID) == promptID && promptID != "":
			var pr promptResult
			if err := json.Unmarshal(m.Result, &pr); err != nil {
				t.Fatal(err)
			}
			acp, _ := prov(provider).ModeFor("acp", "")
			if u := pr.usage(acp.InputOmitsCache); u != nil {
				tr.setUsage(*u)
			}
			if err := tr.stop(pr.StopReason); err != nil {
				t.Fatal(err)
			}
		case !ours[i] && m.Method == "":
			var r struct {
				SessionID string `json:"sessionId"`
			}
			if json.Unmarshal(m.Result, &r) == nil && r.SessionID != "" {
				if err := tr.init(r.SessionID, prov(provider).Tools); err != nil {
					t.Fatal(err)
				}
			}
		case m.Method == "session/update":
			if err := tr.update(m.Params); err != nil {
				t.Fatal(err)
			}
		case m.Method == "session/request_permission":
			var p permissionCall
			if err := json.Unmarshal(m.Params, &p); err != nil {
				t.Fatal(err)
			}
			if !tr.tools.seen(p.ToolCall.ToolCallID) {
				if err := tr.use(p.ToolCall); err != nil {
					t.Fatal(err)
				}
			}
			if answer := recordedAnswer(msgs, ours, i); strings.Contains(answer, "reject") || answer == "cancel" {
				if err := tr.deny(p.ToolCall.ToolCallID, permission.UserDenied); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := tr.finish(nil); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// recordedAnswer finds the optionId we sent for the request at index i.
func recordedAnswer(msgs []acpMessage, ours []bool, i int) string {
	for j := i + 1; j < len(msgs); j++ {
		if ours[j] && string(msgs[j].ID) == string(msgs[i].ID) && msgs[j].Method == "" {
			var r struct {
				Outcome struct{ OptionID string } `json:"outcome"`
			}
			_ = json.Unmarshal(msgs[j].Result, &r)
			return r.Outcome.OptionID
		}
	}
	return ""
}

func TestACPCaptures(t *testing.T) {
	files, _ := filepath.Glob("testdata/acp/*.acp")
	if len(files) == 0 {
		t.Fatal("no ACP captures in testdata/acp")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".acp")
		t.Run(name, func(t *testing.T) {
			rec, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out := replayACP(t, strings.Split(name, "-")[0], rec)
			for _, e := range emittest.Validate(out) {
				t.Errorf("conformance: %v", e)
			}
			checkGolden(t, strings.TrimSuffix(f, ".acp")+".golden", normalize(out))
		})
	}
}

func TestPermissionOutcome(t *testing.T) {
	p := permissionCall{}
	_ = json.Unmarshal([]byte(`{"options":[{"optionId":"always","kind":"allow_always"},{"optionId":"once","kind":"allow_once"},{"optionId":"no","kind":"reject_once"}]}`), &p)
	cases := []struct {
		d    permission.Answer
		want string
	}{
		{permission.Answer{Allow: true}, `{"outcome":{"optionId":"once","outcome":"selected"}}`},
		{permission.Answer{Message: "x"}, `{"outcome":{"optionId":"no","outcome":"selected"}}`},
	}
	for _, c := range cases {
		if b, _ := json.Marshal(p.outcome(c.d)); string(b) != c.want {
			t.Errorf("outcome(%+v) = %s, want %s", c.d, b, c.want)
		}
	}
	none := permissionCall{}
	if b, _ := json.Marshal(none.outcome(permission.Answer{})); string(b) != `{"outcome":{"outcome":"cancelled"}}` {
		t.Errorf("no options: %s", b)
	}
}

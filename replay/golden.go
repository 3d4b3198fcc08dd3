package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/emit"
)

// A golden file is a replay's stream-json events as they were when its
// rules were right (`yume-cli replay X.cast > X.golden.jsonl`). A replay
// is compared with it for what a rule change can break: each tool_use
// (its tool and input), each tool_result (its output and whether it is
// an error), and how the session ended. Ids, uuids, durations and text
// the model wrote are not compared.

var (
	uuidRE     = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	sessionRE  = regexp.MustCompile(`sess-[0-9a-f]+`)
	idRE       = regexp.MustCompile(`\b(toolu|req|msg)_[0-9A-Za-z]+`)
	durationRE = regexp.MustCompile(`"(duration_ms|duration_api_ms)":\d+`)
)

// Normalize replaces what differs from run to run in a stream: uuids, the
// session id, durations, and toolu_/req_/msg_ ids, which are numbered in
// order of first appearance so that a tool_result still visibly pairs
// with its tool_use.
func Normalize(stream []byte) []byte {
	s := uuidRE.ReplaceAllString(string(stream), "UUID")
	s = sessionRE.ReplaceAllString(s, "SESSION")
	s = durationRE.ReplaceAllString(s, `"$1":0`)
	seen := map[string]string{}
	count := map[string]int{}
	s = idRE.ReplaceAllStringFunc(s, func(id string) string {
		if n, ok := seen[id]; ok {
			return n
		}
		kind := id[:strings.IndexByte(id, '_')]
		count[kind]++
		seen[id] = kind + "_" + strconv.Itoa(count[kind])
		return seen[id]
	})
	return []byte(s)
}

// GoldenDiff compares a replay's stream with a golden one and says, for
// each tool_use, tool_result or end that differs, what each has; nil
// where they agree. A golden that is not stream-json is an error.
func GoldenDiff(got, golden []byte) ([]string, error) {
	want, err := facts(Normalize(golden))
	if err != nil {
		return nil, fmt.Errorf("the golden file is not a stream-json event stream: %w", err)
	}
	have, err := facts(Normalize(got))
	if err != nil {
		return nil, err
	}
	var diffs []string
	for i := 0; i < max(len(want), len(have)); i++ {
		w, h := "(nothing)", "(nothing)"
		if i < len(want) {
			w = want[i]
		}
		if i < len(have) {
			h = have[i]
		}
		if w != h {
			diffs = append(diffs, fmt.Sprintf("event %d: the golden has %s; the replay has %s", i+1, w, h))
		}
	}
	return diffs, nil
}

// event is the part of a stream-json line a golden compares.
type event struct {
	Type    string          `json:"type"`
	Subtype string          `json:"subtype"`
	IsError bool            `json:"is_error"`
	Message json.RawMessage `json:"message"` // an object in assistant and user events
}

// facts lists a stream's tool_use, tool_result and result events, each
// as one line of text.
func facts(stream []byte) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		switch e.Type {
		case "result":
			out = append(out, fmt.Sprintf("result %s (is_error %v)", e.Subtype, e.IsError))
		case "assistant", "user":
			var msg struct {
				Content json.RawMessage `json:"content"`
			}
			var blocks []emit.Block
			if json.Unmarshal(e.Message, &msg) != nil || json.Unmarshal(msg.Content, &blocks) != nil {
				continue // a user's plain-text prompt
			}
			for _, b := range blocks {
				switch b.Type {
				case "tool_use":
					out = append(out, fmt.Sprintf("tool_use %s %s %s", b.ID, b.Name, compact(b.Input)))
				case "tool_result":
					out = append(out, fmt.Sprintf("tool_result %s (is_error %v) %s", b.ToolUseID, b.IsError, compact(b.Content)))
				}
			}
		}
	}
	return out, sc.Err()
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// noticeRE finds the question in a notice that no rule recognised it.
var noticeRE = regexp.MustCompile(`no rule of \S+ recognises(?::| \() ?("(?:[^"\\]|\\.)*")`)

// GoldenUnrecognised lists the questions a golden stream's notices say no
// rule recognised: questions the rules are known not to know, which a
// replay meeting them again does not fail on.
func GoldenUnrecognised(golden []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(golden))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		var e struct {
			Type, Subtype, Message string
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Type != "system" {
			continue
		}
		for _, m := range noticeRE.FindAllStringSubmatch(e.Message, -1) {
			if q, err := strconv.Unquote(m[1]); err == nil {
				out = append(out, q)
			}
		}
	}
	return out
}

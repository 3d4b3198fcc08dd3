package recordings_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/emit"
	"github.com/yume-cli/yume-cli/emit/emittest"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/recordings"
	"github.com/yume-cli/yume-cli/replay"
)

// people are recordings of a person answering ordinary programs
// (testdata/people/README.md says how each was made) and what each
// question's tool_use must carry: the question and the context a person
// needs to decide.
var people = []struct {
	cast string
	want []string // in some tool_use input, each
}{
	{"ssh-keygen-overwrite-yes", []string{`Overwrite (y/n)?`, `demo_key already exists.`}},
	{"ssh-keygen-overwrite-no", []string{`Overwrite (y/n)?`, `demo_key already exists.`}},
	{"gdb-quit-yes", []string{`Quit anyway? (y or n)`, `A debugging session is active.`}},
	{"npm-init-ok-enter", []string{`package name: (demo)`, `Is this OK? (yes)`, `About to write to`}},
	{"npm-init-ok-no", []string{`Is this OK? (yes)`, `About to write to`}},
	{"git-clean-i-one", []string{`What now>`, `Would remove the following items:`, `1: clean`}},
	{"git-clean-i-c", []string{`What now>`, `Would remove the following items:`}},
	{"inquirer-run-enter", []string{`"command":"rm -rf build/cache"`, `Run this command?`, `How should it run?`}},
	{"inquirer-run-y", []string{`"command":"rm -rf build/cache"`, `How should it run?`}},
	{"apt-continue-enter", []string{`Do you want to continue? [Y/n]`, `The following NEW packages will be installed:`}},
	{"apt-continue-no", []string{`Do you want to continue? [Y/n]`, `demo-tool`}},
	{"press-enter", []string{`Press Enter to continue`, `Build finished`}},
}

// TestPeopleReplay: each person's recording replays through the generic
// profile, answered as the person answered (read for what the keys mean),
// with no mismatch and nothing left untyped; every question carries its
// question and context; the stream matches the golden file (-update).
func TestPeopleReplay(t *testing.T) {
	prof, err := heuristics.LoadProfile("generic")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range people {
		t.Run(p.cast, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "people", p.cast+".cast"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			c, err := recordings.Read(f)
			if err != nil {
				t.Fatal(err)
			}
			var out, trace bytes.Buffer
			res := replay.Run(context.Background(), c, replay.Options{
				Profile: prof, Out: emit.NewWriter(&out, emit.Config{Model: "corpus"}), AsRecorded: true, Trace: &trace,
			})
			if res.Err != nil {
				t.Errorf("replay: %v", res.Err)
			}
			for _, m := range res.Mismatches {
				t.Errorf("keys differ: %v", &m)
			}
			if res.Pending != "" {
				t.Errorf("recorded input %q was never typed", res.Pending)
			}
			for _, pr := range emittest.Validate(out.Bytes()) {
				t.Errorf("conformance: %v", pr)
			}
			inputs := toolInputs(t, out.Bytes())
			if len(inputs) == 0 {
				t.Fatalf("no tool_use:\n%s", out.String())
			}
			for _, in := range inputs {
				if !strings.Contains(in, `"description":"`) {
					t.Errorf("a tool_use without its question: %s", in)
				}
			}
			all := strings.Join(inputs, "\n")
			for _, w := range p.want {
				if !strings.Contains(all, w) {
					t.Errorf("no tool_use carries %q:\n%s", w, all)
				}
			}
			checkGolden(t, filepath.Join("testdata", "people", p.cast+".golden.jsonl"), out.Bytes(), trace.String())
		})
	}
}

// toolInputs are the tool_use inputs of a stream, as JSON text.
func toolInputs(t *testing.T, stream []byte) []string {
	var out []string
	for _, line := range bytes.Split(bytes.TrimSpace(stream), []byte("\n")) {
		var ev struct {
			Type    string
			Message json.RawMessage
		}
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		var msg struct {
			Content []struct {
				Type  string
				Input json.RawMessage
			}
		}
		if ev.Type != "assistant" || json.Unmarshal(ev.Message, &msg) != nil {
			continue
		}
		for _, b := range msg.Content {
			if b.Type == "tool_use" {
				out = append(out, string(b.Input))
			}
		}
	}
	return out
}

//go:build unix

package driver_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/yume-cli/yume-cli/driver"
	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/transcript"
)

// batchLog is a transcript written in batches, late (Copilot CLI's session
// events): nothing until the file flushed exists, then all of it at once.
type batchLog struct {
	flushed string
	evs     []transcript.Event

	mu   sync.Mutex
	done bool
}

func (l *batchLog) Path() string { return "batch log" }

func (l *batchLog) Poll() ([]transcript.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := os.Stat(l.flushed); err != nil || l.done {
		return nil, nil
	}
	l.done = true
	return l.evs, nil
}

// TestWholeCallAskedBeforeItsLog: a question whose rule says it shows its
// call whole goes to the GUI from the screen, without waiting for a
// transcript written late (here: only once the program has its answer);
// when the batch comes, the logged call that ran the command is the
// question's (its output from the log, under the question's tool_use),
// and a call the program ran without asking, logged first in the same
// batch, is reported as itself, not taken for the question.
func TestWholeCallAskedBeforeItsLog(t *testing.T) {
	prof := boxedProfile(t)
	dir := t.TempDir()
	flushed := filepath.Join(dir, "flushed")
	log := &batchLog{flushed: flushed, evs: []transcript.Event{
		{Kind: transcript.ToolCall, ID: "r1", Name: "Read", Input: map[string]any{"file_path": "notes.txt"}},
		{Kind: transcript.ToolCall, ID: "c1", Name: "Bash", Input: map[string]any{"command": "ls -la", "description": "List the files"}},
		{Kind: transcript.ToolResult, ID: "r1", Output: "the notes"},
		{Kind: transcript.ToolResult, ID: "c1", Output: "the listing, from the log"},
	}}
	script := `printf '│ List the files  │\n│ ls -la          │\n│ Run it?         │\n'; read a; : > flushed; echo "answer $a"`
	r := driveWith(t, dir, prof, permission.Default, approveAll, nil, nil,
		func(c *driver.Config) { c.Transcript = log }, "sh", "-c", script)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if !strings.Contains(r.trace, "asked from the screen now") {
		t.Errorf("the question waited for the transcript; trace:\n%s", r.trace)
	}
	var bash, read []toolUse
	for _, u := range r.uses {
		switch u.Name {
		case "Bash":
			bash = append(bash, u)
		case "Read":
			read = append(read, u)
		}
	}
	if len(bash) != 1 || bash[0].Command != "ls -la" || bash[0].Desc != "List the files" {
		t.Fatalf("Bash tool_uses %+v, want one: ls -la (List the files)", bash)
	}
	if got := r.results[bash[0].ID].str("content"); got != "the listing, from the log" {
		t.Errorf("the question's tool_result %q, want the logged call's output", got)
	}
	if len(read) != 1 || r.results[read[0].ID].str("content") != "the notes" {
		t.Errorf("Read tool_uses %+v (results %v), want the unasked call reported as itself", read, r.results)
	}
}

// boxedProfile asks a boxed question that shows its call whole.
func boxedProfile(t *testing.T) *heuristics.Profile {
	t.Helper()
	prof, err := heuristics.ParseProfile("boxed.yaml", []byte(`name: boxed
quiet_ms: 50
rules:
  - name: run
    match: '(?m)^│ (?P<description>\S.*?) +│\n│ (?P<command>\S.*?) +│\n│ (?P<prompt>Run it\?) +│$'
    kind: confirm
    whole_call: true
    approve: 'y<Enter>'
    deny: 'n<Enter>'
`))
	if err != nil {
		t.Fatal(err)
	}
	return prof
}

// TestWholeCallWaitsWhenTheScreenMayDiffer: a command the screen may draw
// otherwise than written (a tab as spaces, a combining accent joined) is
// not asked from the screen at once: the transcript's text is waited for.
func TestWholeCallWaitsWhenTheScreenMayDiffer(t *testing.T) {
	for _, command := range []string{"ls  -la", "ls é"} {
		t.Run(command, func(t *testing.T) {
			dir := t.TempDir()
			log := &batchLog{flushed: filepath.Join(dir, "flushed"), evs: []transcript.Event{
				{Kind: transcript.ToolCall, ID: "c1", Name: "Bash", Input: map[string]any{"command": command, "description": "List"}},
				{Kind: transcript.ToolResult, ID: "c1", Output: "listed"},
			}}
			script := `printf '│ List            │\n│ ` + command + `          │\n│ Run it?         │\n'; read a; : > flushed; echo "answer $a"`
			r := driveWith(t, dir, boxedProfile(t), permission.Default, approveAll, nil, nil,
				func(c *driver.Config) { c.Transcript = log }, "sh", "-c", script)
			if r.err != nil {
				t.Fatal(r.err)
			}
			if !strings.Contains(r.trace, "may be drawn otherwise than written") {
				t.Errorf("the trace does not say why %q was not asked from the screen:\n%s", command, r.trace)
			}
			if strings.Contains(r.trace, "asked from the screen now") || !strings.Contains(r.trace, "waiting for it") {
				t.Errorf("%q was asked from the screen without waiting for the transcript; trace:\n%s", command, r.trace)
			}
		})
	}
}

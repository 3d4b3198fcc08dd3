package providers

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/transcript"
)

// longCommand is the command of the captured exports: longer than the
// TUI is wide, with hyphens where it wraps.
const longCommand = "printf '%s\\n' 'a-b' && echo wrap-me-at-any-column wrap-me-at-any-column wrap-me-at-any-column " +
	"wrap-me-at-any-column wrap-me-at-any-column wrap-me-at-any-column wrap-me-at-any-column wrap-me-at-any-column " +
	"wrap-me-at-any-column wrap-me-at-any-column wrap-me-at-any-column wrap-me-at-any-column wrap-me-at-any-column " +
	"wrap-me-at-any-column && echo done-done"

func kinds(evs []transcript.Event) string {
	var k []string
	for _, e := range evs {
		k = append(k, e.Kind.String())
	}
	return strings.Join(k, " ")
}

func readExport(t *testing.T, name string) *openCodeExport {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	x, err := parseOpenCodeExport(b)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestOpenCodeExport reads what opencode 1.18.34 and Kilo 7.7.9 exported
// of a TUI turn in auto mode (one shell call run unasked): the prompt,
// the texts, the call exactly as it ran (the screen wraps it at a hyphen),
// its whole output, and the turn's end; read again, nothing is new.
func TestOpenCodeExport(t *testing.T) {
	for _, name := range []string{"opencode-export-auto.json", "kilo-export-auto.json"} {
		t.Run(name, func(t *testing.T) {
			x := readExport(t, name)
			var seen openCodeSeen
			evs := seen.events(x)
			if want := "prompt text tool_call tool_result text turn_end"; kinds(evs) != want {
				t.Fatalf("events %s, want %s", kinds(evs), want)
			}
			if evs[0].Text != "run it" || evs[1].Text != "Long." || evs[4].Text != "Done." {
				t.Errorf("prompt %q, texts %q %q", evs[0].Text, evs[1].Text, evs[4].Text)
			}
			call, res := evs[2], evs[3]
			if call.Name != "Bash" || call.Input["command"] != longCommand || call.Input["description"] != "long" {
				t.Errorf("call %+v", call)
			}
			if res.ID != call.ID || res.IsError || !strings.HasPrefix(res.Output, "a-b\nwrap-me-at-any-column ") || !strings.HasSuffix(res.Output, "\ndone-done\n") {
				t.Errorf("result %+v", res)
			}
			if again := seen.events(x); len(again) != 0 {
				t.Errorf("read again: %s, want nothing new", kinds(again))
			}
		})
	}
}

// TestOpenCodeExportGrowing: a session read while it runs. A call still
// pending (its input arriving) is not reported; running (asked about, or
// running), it is, once; its result once it completed; the turn's end
// only at the step that did not finish to call tools. Messages older
// than the run (a resumed session's earlier turns) are not reported.
func TestOpenCodeExportGrowing(t *testing.T) {
	full := readExport(t, "opencode-export-auto.json")
	step := func(msgs int, status string) *openCodeExport {
		x := readExport(t, "opencode-export-auto.json")
		x.Messages = x.Messages[:msgs]
		if status != "" {
			st := x.Messages[1].Parts[2].State
			st.Status, st.Output = status, ""
			x.Messages[1].Info.Time.Completed = 0
		}
		return x
	}
	var seen openCodeSeen
	for _, c := range []struct {
		x    *openCodeExport
		want string
	}{
		{step(2, "pending"), "prompt text"},
		{step(2, "running"), "tool_call"},
		{step(2, ""), "tool_result"},
		{full, "text turn_end"},
		{full, ""},
	} {
		if got := kinds(seen.events(c.x)); got != c.want {
			t.Errorf("events %q, want %q", got, c.want)
		}
	}

	later := openCodeSeen{since: full.Messages[1].Info.Time.Created}
	if got := kinds(later.events(full)); got != "text tool_call tool_result text turn_end" {
		t.Errorf("from the second message on: %q", got)
	}
	resumed := openCodeSeen{since: full.Messages[2].Info.Time.Created + 1}
	if got := kinds(resumed.events(full)); got != "" {
		t.Errorf("a resumed session's earlier turn: %q, want nothing", got)
	}
}

// TestOpenCodeRejected: a call the person rejected ends with an error
// (the program's words), and the step that called it does not end the
// turn (the program stops there; the screen says when).
func TestOpenCodeRejected(t *testing.T) {
	for _, name := range []string{"opencode-export-deny.json", "kilo-export-deny.json"} {
		x := readExport(t, name)
		var seen openCodeSeen
		evs := seen.events(x)
		if want := "prompt text tool_call tool_result"; kinds(evs) != want {
			t.Fatalf("%s: events %s, want %s", name, kinds(evs), want)
		}
		if res := evs[3]; !res.IsError || !strings.Contains(res.Output, "rejected") || res.ID != evs[2].ID {
			t.Errorf("%s: result %+v: want the rejection, an error", name, res)
		}
	}
}

// TestOpenCodeFindThroughCLI: read through the CLI (a TUI's server that
// did not answer in time, under load), the run's session is the one whose
// first message is its prompt, not the first created (a twin TUI's in the
// same workspace), and none while its own has no message yet.
func TestOpenCodeFindThroughCLI(t *testing.T) {
	list := `[{"id":"ses_twin","directory":"/w","created":2000},{"id":"ses_own","directory":"/w","created":2001}]`
	export := func(prompt string) string {
		return `{"info":{"id":"ses_x"},"messages":[{"info":{"role":"user"},"parts":[{"type":"text","text":"` + prompt + `"}]}]}`
	}
	for _, c := range []struct {
		name    string
		prompts map[string]string
		want    string
	}{
		{"both written", map[string]string{"ses_twin": "write beta", "ses_own": "write alpha"}, "ses_own"},
		{"own not written yet", map[string]string{"ses_twin": "write beta"}, ""},
	} {
		o := &openCodeLog{name: "opencode", dir: "/w", prompt: "write alpha"}
		o.run = func(args ...string) ([]byte, error) {
			switch {
			case args[0] == "session":
				return []byte(list), nil
			case args[0] == "export" && c.prompts[args[1]] != "":
				return []byte(export(c.prompts[args[1]])), nil
			case args[0] == "export":
				return []byte(`{"info":{"id":"ses_x"},"messages":[]}`), nil
			}
			return nil, fmt.Errorf("unexpected %q", args)
		}
		if got, err := o.find(nil); err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// TestPickOpenCodeSession: the session list read, the workspace's first
// created at or after the launch.
func TestPickOpenCodeSession(t *testing.T) {
	pickOpenCodeSession := func(list []byte, dir string, since int64) (string, error) {
		rows, err := parseOpenCodeList(list)
		if found := listedSince(rows, dir, since); len(found) > 0 {
			return found[0].ID, err
		}
		return "", err
	}
	list := []byte(`[
	  {"id":"ses_new2","directory":"/w","created":3000},
	  {"id":"ses_other","directory":"/elsewhere","created":2500},
	  {"id":"ses_new1","directory":"/w","created":2000},
	  {"id":"ses_old","directory":"/w","created":1000}
	]`)
	for _, c := range []struct {
		since int64
		want  string
	}{{1500, "ses_new1"}, {2000, "ses_new1"}, {2001, "ses_new2"}, {3001, ""}} {
		if got, err := pickOpenCodeSession(list, "/w", c.since); err != nil || got != c.want {
			t.Errorf("since %d: %q, %v; want %q", c.since, got, err, c.want)
		}
	}
	if got, err := pickOpenCodeSession(nil, "/w", 0); got != "" || err != nil {
		t.Errorf("no session at all (empty output): %q, %v", got, err)
	}
	if _, err := pickOpenCodeSession([]byte("Error: no database"), "/w", 0); err == nil {
		t.Error("want an error for output that is no list")
	}
}

// TestOpenCodeClaim: of the workspace's new sessions, the one this TUI's
// server is at work on is its own, whichever was created first; of those
// none is at work on, the first whose first message is this run's prompt,
// only after openCodeClaim (at once from a server with no status at all),
// never the twin's however long its own takes; the first created when
// the prompt is not known; a status that did not come is no answer.
func TestOpenCodeClaim(t *testing.T) {
	twin, own := openCodeListed{ID: "ses_twin", Directory: "/w", Created: 2000}, openCodeListed{ID: "ses_own", Directory: "/w", Created: 2001}
	noStatus := &openCodeHTTPError{path: "/session/status", err: errOpenCodeNotFound}
	prompts := map[string]string{"ses_twin": "make beta.txt", "ses_own": "make alpha.txt"}
	for _, c := range []struct {
		name    string
		found   []openCodeListed
		busy    map[string]bool
		err     error
		listed  time.Duration     // how long ago the list first held one; 0: now
		prompt  string            // this run's ("": none known)
		prompts map[string]string // the sessions' first messages (nil: none yet)
		want    string
	}{
		{name: "none yet"},
		{name: "own at work, created second", found: []openCodeListed{twin, own}, busy: map[string]bool{"ses_own": true}, want: "ses_own"},
		{name: "both at work: the first", found: []openCodeListed{twin, own}, busy: map[string]bool{"ses_own": true, "ses_twin": true}, want: "ses_twin"},
		{name: "only the twin yet", found: []openCodeListed{twin}, busy: map[string]bool{}},
		{name: "none at work, just listed", found: []openCodeListed{twin, own}, busy: map[string]bool{}, listed: time.Second, prompt: "make alpha.txt", prompts: prompts},
		{name: "none at work, past the claim: its own prompt", found: []openCodeListed{twin, own}, busy: map[string]bool{}, listed: openCodeClaim, prompt: "make alpha.txt", prompts: prompts, want: "ses_own"},
		{name: "none at work, past the claim, no prompt written yet", found: []openCodeListed{twin, own}, busy: map[string]bool{}, listed: openCodeClaim, prompt: "make alpha.txt"},
		{name: "only the twin, past the claim", found: []openCodeListed{twin}, busy: map[string]bool{}, listed: openCodeClaim, prompt: "make alpha.txt", prompts: prompts},
		{name: "only the twin, long past the claim", found: []openCodeListed{twin}, busy: map[string]bool{}, listed: 10 * openCodeClaim, prompt: "make alpha.txt", prompts: prompts},
		{name: "no prompt known, past the claim: the first", found: []openCodeListed{twin, own}, busy: map[string]bool{}, listed: openCodeClaim, prompts: prompts, want: "ses_twin"},
		{name: "no status at all: its own prompt at once", found: []openCodeListed{twin, own}, err: noStatus, prompt: "make alpha.txt", prompts: prompts, want: "ses_own"},
		{name: "no status at all, no prompt known: the first", found: []openCodeListed{twin, own}, err: noStatus, want: "ses_twin"},
		{name: "status not answered", found: []openCodeListed{twin}, err: errors.New("timeout"), listed: time.Second},
		{name: "status not answered, past the claim", found: []openCodeListed{twin}, err: errors.New("timeout"), listed: openCodeClaim, want: "ses_twin"},
	} {
		o := &openCodeLog{prompt: c.prompt}
		if c.listed > 0 {
			o.listedAt = time.Now().Add(-c.listed)
		}
		asked := 0
		got := o.claim(c.found, func() (map[string]bool, error) { asked++; return c.busy, c.err }, func(id string) string { return c.prompts[id] })
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if len(c.found) == 0 && asked != 0 {
			t.Errorf("%s: the status was read with no session listed", c.name)
		}
	}
	// A session whose first message is another run's is not read again.
	o := &openCodeLog{prompt: "make alpha.txt", listedAt: time.Now().Add(-openCodeClaim)}
	reads := map[string]int{}
	first := func(id string) string { reads[id]++; return prompts[id] }
	idle := func() (map[string]bool, error) { return nil, nil }
	for range 3 {
		o.claim([]openCodeListed{twin}, idle, first)
	}
	if got := o.claim([]openCodeListed{twin, own}, idle, first); got != "ses_own" || reads["ses_twin"] != 1 {
		t.Errorf("claim = %q, the twin's messages read %d times; want ses_own, read once", got, reads["ses_twin"])
	}
}

// fakeCLI answers the transcript's reads from canned output, counting them.
type fakeCLI struct {
	list, export []byte
	err          error
	calls        []string
}

func (f *fakeCLI) run(args ...string) ([]byte, error) {
	f.calls = append(f.calls, strings.Join(args, " "))
	switch {
	case f.err != nil:
		return nil, f.err
	case args[0] == "session":
		return f.list, nil
	}
	return f.export, nil
}

// TestOpenCodeLog: a new session is found in the list (its id reported),
// then read through its export; a session to resume is checked at the
// first Poll, and one that cannot be exported is gone (Path ""); reads
// that keep failing give the transcript up.
func TestOpenCodeLog(t *testing.T) {
	export, err := os.ReadFile("testdata/opencode-export-auto.json")
	if err != nil {
		t.Fatal(err)
	}
	x, _ := parseOpenCodeExport(export)
	started := time.UnixMilli(x.Info.Time.Created - 5)
	list := []byte(`[{"id":"` + x.Info.ID + `","directory":"/home/u/ws","created":` + strconv.FormatInt(x.Info.Time.Created, 10) + `}]`)

	cli := &fakeCLI{list: list, export: export}
	o := &openCodeLog{name: "opencode", run: cli.run, dir: "/home/u/ws", started: started}
	o.seen.since = started.UnixMilli()
	if o.Path() == "" {
		t.Fatal("a new session's log is not found until the turn ends: its search must count as found")
	}
	o.read()
	evs, _ := o.take()
	if len(evs) != 1 || evs[0].Kind != transcript.Session || evs[0].Session != x.Info.ID {
		t.Fatalf("first read: %+v, want the session", evs)
	}
	o.read()
	if evs, _ = o.take(); kinds(evs) != "prompt text tool_call tool_result text turn_end" {
		t.Errorf("second read: %s", kinds(evs))
	}
	if wait := time.Until(o.nextAt); wait < openCodeIdleGap/2 {
		t.Errorf("the next read in %v after the turn's end, want the idle gap (%v)", wait, openCodeIdleGap)
	}
	if want := "session list --format json -n 20|export " + x.Info.ID; strings.Join(cli.calls, "|") != want {
		t.Errorf("reads %q, want %q", cli.calls, want)
	}
	if !strings.Contains(o.Path(), x.Info.ID) {
		t.Errorf("Path %q", o.Path())
	}

	// Resumed: a session that cannot be exported is gone at once.
	gone := &fakeCLI{err: errors.New("exit status 1")}
	r := &openCodeLog{name: "kilo", run: gone.run, dir: "/home/u/ws", started: started, session: "ses_gone"}
	if r.Path() != "kilo export ses_gone" {
		t.Errorf("Path %q before the first read", r.Path())
	}
	r.read()
	if _, err := r.take(); err == nil || r.Path() != "" || len(gone.calls) != 1 {
		t.Errorf("a session that cannot be exported: err %v, Path %q, %d reads", err, r.Path(), len(gone.calls))
	}
	if _, _ = r.Poll(); len(gone.calls) != 1 {
		t.Errorf("a given-up transcript is read again (%d reads)", len(gone.calls))
	}
	ok := &fakeCLI{export: export}
	r = &openCodeLog{name: "opencode", run: ok.run, dir: "/home/u/ws", session: x.Info.ID}
	r.seen.since = x.Info.Time.Updated + 1 // resumed after the earlier turn
	r.read()
	if evs, err := r.take(); err != nil || len(evs) != 0 || r.Path() == "" || len(ok.calls) != 1 {
		t.Errorf("a session to resume: %s, %v, Path %q, reads %q", kinds(evs), err, r.Path(), ok.calls)
	}

	// A new session's search that keeps failing is given up.
	bad := &fakeCLI{err: errors.New("exit status 1")}
	n := &openCodeLog{name: "opencode", run: bad.run, dir: "/home/u/ws", started: started}
	for i := 0; i < openCodeFails; i++ {
		if n.Path() == "" {
			t.Fatalf("given up after %d failures", i)
		}
		n.read()
	}
	if _, err := n.take(); err == nil || n.Path() != "" {
		t.Errorf("after %d failures: err %v, Path %q", openCodeFails, err, n.Path())
	}
}

// TestOpenCodeUrge: a question waits for a read begun after it was seen.
// Urged, the next read begins at the next Poll, not a gap after the last
// one; urged during a read that began before the question, as that read
// ends; during one that began after it, that read is the one it waits
// for, and the gap stands.
func TestOpenCodeUrge(t *testing.T) {
	export, err := os.ReadFile("testdata/opencode-export-auto.json")
	if err != nil {
		t.Fatal(err)
	}
	x, _ := parseOpenCodeExport(export)
	cli := &fakeCLI{export: export}
	gate := make(chan struct{})
	o := &openCodeLog{name: "opencode", dir: "/home/u/ws", session: x.Info.ID, found: true}
	o.run = func(args ...string) ([]byte, error) {
		<-gate // the read is in flight until the test lets it end
		return cli.run(args...)
	}
	busy := func() bool {
		o.mu.Lock()
		defer o.mu.Unlock()
		return o.busy
	}
	end := func() { // lets the read in flight end, and waits for it
		gate <- struct{}{}
		o.reads.Wait()
	}
	defer o.Close()

	if _, _ = o.Poll(); !busy() {
		t.Fatal("the first Poll began no read")
	}
	end()
	if _, _ = o.Poll(); busy() {
		t.Fatal("a read began right after the last one: no gap")
	}
	o.Urge(time.Now())
	if _, _ = o.Poll(); !busy() {
		t.Fatal("urged, the next Poll began no read: the question waits out the gap")
	}
	asked := time.Now() // the read in flight began before
	o.Urge(asked)
	end()
	if _, _ = o.Poll(); !busy() {
		t.Fatal("urged during a read begun before the question, the next read waits out the gap")
	}
	o.Urge(asked) // this read began after the question: it is the one it waits for
	end()
	if _, _ = o.Poll(); busy() {
		t.Fatal("urged during a read begun after the question, another began at once")
	}
	if !o.ReadSince(asked) {
		t.Fatal("no read begun after the question was handed over")
	}
}

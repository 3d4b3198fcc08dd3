//go:build unix

package recordings_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/yume-cli/yume-cli/recordings"
)

func corpusCasts(tb testing.TB) []string { return castsIn(tb, "corpus") }

// peopleCasts are the recordings of people (testdata/people).
func peopleCasts(tb testing.TB) []string { return castsIn(tb, "people") }

// castsIn lists testdata/dir's casts; none is a test failure.
func castsIn(tb testing.TB, dir string) []string {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", dir, "*.cast"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no casts in testdata/%s: %v", dir, err)
	}
	return paths
}

// TestCorpusIsClean: no machine paths, host or user names in a recording.
func TestCorpusIsClean(t *testing.T) {
	banned := []string{"/work/", "/tmp/", "/home/", "/root", "/Users/"}
	if h, err := os.Hostname(); err == nil && len(h) > 3 {
		banned = append(banned, h)
	}
	if u, err := user.Current(); err == nil && len(u.Username) > 3 {
		banned = append(banned, u.Username)
	}
	for _, p := range append(corpusCasts(t), peopleCasts(t)...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// People's casts were recorded in a made-up home.
		b = bytes.ReplaceAll(b, []byte("/home/person/"), nil)
		for _, s := range banned {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s contains %q: re-record it from a temp cwd with relative paths", p, s)
			}
		}
		// A full-screen TUI (the *-tui casts of issue #5) redraws whole
		// frames with colours: even a one-command session takes more.
		// People's casts are whole sessions, kept as recorded.
		limit := 16 << 10
		if strings.Contains(p, "people") {
			continue
		}
		if strings.HasSuffix(p, "-tui.cast") {
			limit = 64 << 10
		}
		if len(b) > limit {
			t.Errorf("%s is %d bytes: keep corpus recordings small", p, len(b))
		}
	}
}

// TestCorpusPlaysInAsciinema: stock asciinema reads every recording.
func TestCorpusPlaysInAsciinema(t *testing.T) {
	if _, err := exec.LookPath("asciinema"); err != nil {
		t.Skip("asciinema is not installed (apt install asciinema): cannot check that casts play")
	}
	for _, p := range corpusCasts(t) {
		// asciinema 2.x opens /dev/tty even for cat: give it a terminal.
		cmd := exec.Command("asciinema", "cat", p)
		tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 80, Rows: 24})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		_, _ = io.Copy(&out, tty) // Ends with EIO once asciinema exits.
		_ = tty.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("asciinema cat %s: %v\n%s", p, err, out.String())
		}
	}
}

// TestComplianceTranscripts checks the five compliance transcripts of Yume's
// own PROTOCOL_NORMALIZATION.md §7 (github.com/aofp/yume) beyond
// emit.Validate: each has the shape its name promises.
func TestComplianceTranscripts(t *testing.T) {
	found := map[string]bool{}
	for _, cc := range corpus {
		if cc.compliance == "" {
			continue
		}
		found[cc.compliance] = true
		t.Run(cc.compliance, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "corpus", cc.name+".golden.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			uses, denials := 0, 0
			for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
				var ev map[string]any
				if err := json.Unmarshal(line, &ev); err != nil {
					t.Fatal(err)
				}
				types = append(types, fmt.Sprint(ev["type"]))
				uses += bytes.Count(line, []byte(`"type":"tool_use"`))
				if ev["type"] == "result" {
					d, _ := ev["permission_denials"].([]any)
					denials = len(d)
				}
			}
			seq := strings.Join(types, ",")
			if !strings.HasPrefix(seq, "system,") || !strings.HasSuffix(seq, ",result,message_stop") ||
				strings.Count(seq, "result") != 1 {
				t.Errorf("events %s: want one init first, one result, message_stop last", seq)
			}
			want := map[string]func() bool{
				"plain text":         func() bool { return uses == 0 && strings.Contains(string(b), `"type":"text"`) },
				"single tool call":   func() bool { return uses == 1 && denials == 0 },
				"several tool calls": func() bool { return uses >= 2 },
				"tool denial":        func() bool { return uses == 1 && denials == 1 && strings.Contains(string(b), `"is_error":true`) },
				"interrupt":          func() bool { return strings.Contains(seq, "user,interrupt,result") },
			}[cc.compliance]
			if want == nil || !want() {
				t.Errorf("transcript does not have the shape of %q: %s", cc.compliance, seq)
			}
		})
	}
	if len(found) != 5 {
		t.Errorf("compliance transcripts: have %v, want the five of Yume's PROTOCOL_NORMALIZATION.md §7", found)
	}
}

// bigCast is a recording of about size bytes: a program that prints
// coloured log lines, then asks rm's question, answered with "y".
func bigCast(size int) *recordings.Cast {
	c := &recordings.Cast{Header: recordings.Header{Version: 2, Width: 120, Height: 40, Command: "rm -i big.log"}}
	at, n := time.Duration(0), 0
	for n < size {
		var b strings.Builder
		for b.Len() < 4000 {
			fmt.Fprintf(&b, "\x1b[32m%6d\x1b[0m build step %d: compiling package number %d ok\r\n", n, n%97, n*7)
		}
		at += time.Millisecond
		c.Events = append(c.Events, recordings.Event{Time: at, Code: recordings.CodeOutput, Data: b.String()})
		n += b.Len()
	}
	c.Events = append(c.Events,
		recordings.Event{Time: at + time.Millisecond, Code: recordings.CodeOutput, Data: "rm: remove regular file 'big.log'? "},
		recordings.Event{Time: at + 300*time.Millisecond, Code: recordings.CodeInput, Data: "y\r"},
		recordings.Event{Time: at + 301*time.Millisecond, Code: recordings.CodeOutput, Data: "y\r\n"},
		recordings.Event{Time: at + 302*time.Millisecond, Code: recordings.CodeExit, Data: "0"})
	return c
}

// BenchmarkReplay replays a 1 MB recording through the production driver
// (screen model, engine, emitter); the issue asks for well under a second.
func BenchmarkReplay(b *testing.B) {
	var buf bytes.Buffer
	if err := recordings.Write(&buf, bigCast(1<<20)); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		c, err := recordings.Read(bytes.NewReader(buf.Bytes()))
		if err != nil {
			b.Fatal(err)
		}
		r := replayCase(b, c, corpusCase{provider: "generic"})
		if r.err != nil || len(r.mismatches) > 0 || !bytes.Contains(r.stdout, []byte(`"tool_use"`)) {
			b.Fatalf("replay: %v %v\n%s", r.err, r.mismatches, r.stdout)
		}
	}
}

// FuzzReadCorpus fuzzes Read with the corpus recordings as seeds: bad
// input is an error naming a line, never a panic.
func FuzzReadCorpus(f *testing.F) {
	for _, p := range corpusCasts(f) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := recordings.Read(bytes.NewReader(data))
		if err != nil {
			if fe, ok := err.(*recordings.FormatError); ok && fe.Line < 1 {
				t.Errorf("error names line %d: %v", fe.Line, err)
			}
			return
		}
		var out bytes.Buffer
		if err := recordings.Write(&out, c); err != nil {
			t.Errorf("a cast Read accepted does not write: %v", err)
		}
	})
}

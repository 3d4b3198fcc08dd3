package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lineParser makes one Text event per line.
func lineParser(line []byte) []Event { return []Event{{Kind: Text, Text: string(line)}} }

func texts(evs []Event) string {
	var s []string
	for _, e := range evs {
		s = append(s, e.Text)
	}
	return strings.Join(s, "|")
}

// TestTail: the file may appear late; only complete lines are parsed, a
// line split across writes is read once whole; blank lines are skipped.
func TestTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	located := false
	tail := NewTail(func() (string, bool) { return path, located }, lineParser)
	defer tail.Close()
	poll := func(want string) {
		t.Helper()
		evs, err := tail.Poll()
		if err != nil || texts(evs) != want {
			t.Fatalf("Poll = %q, %v; want %q", texts(evs), err, want)
		}
	}
	poll("") // not located
	located = true
	poll("") // located, not created
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	write := func(s string) {
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	write("one\ntw")
	poll("one")
	write("o\n\n")
	poll("two")
	write(strings.Repeat("x", 100) + "\nthree\n")
	poll(strings.Repeat("x", 100) + "|three")
	if tail.Path() != path {
		t.Errorf("Path = %q", tail.Path())
	}
}

// TestTailSkipsHugeLines: a line past the limit is dropped whole and the
// next one is read.
func TestTailSkipsHugeLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	tail := NewTail(func() (string, bool) { return path, true }, lineParser)
	defer tail.Close()
	if err := os.WriteFile(path, []byte(strings.Repeat("y", maxLine+10)+"\nafter\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	evs, err := tail.Poll()
	if err != nil || texts(evs) != "after" {
		t.Fatalf("Poll = %d events (%.20q…), %v; want only \"after\"", len(evs), texts(evs), err)
	}
}

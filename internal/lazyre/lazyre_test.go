package lazyre

import (
	"strings"
	"testing"
)

// TestCompilesOnFirstUse: New compiles nothing; the first method call
// does, once, and every method answers as regexp's own.
func TestCompilesOnFirstUse(t *testing.T) {
	r := New(`(\d+)-(?P<word>[a-z]+)`)
	if r.String() != `(\d+)-(?P<word>[a-z]+)` {
		t.Fatalf("String() = %q", r.String())
	}
	if !r.MatchString("at 12-ab") || r.MatchString("none") {
		t.Fatal("MatchString")
	}
	if got := r.FindStringSubmatch("x 12-ab y"); strings.Join(got, ",") != "12-ab,12,ab" {
		t.Fatalf("FindStringSubmatch = %q", got)
	}
	if r.SubexpIndex("word") != 2 {
		t.Fatal("SubexpIndex")
	}
	if r.Get() != r.Get() {
		t.Fatal("Get compiled twice")
	}
	if got := r.ReplaceAllString("1-a 2-b", "<$word>"); got != "<a> <b>" {
		t.Fatalf("ReplaceAllString = %q", got)
	}
}

// TestCompileAllReportsABadExpression: a bad expression is found by
// CompileAll, not first by a user's run (which would panic).
func TestCompileAllReportsABadExpression(t *testing.T) {
	before := len(all)
	t.Cleanup(func() { all = all[:before] })
	New(`good`)
	if err := CompileAll(); err != nil {
		t.Fatalf("CompileAll: %v", err)
	}
	New(`bad(`)
	if err := CompileAll(); err == nil || !strings.Contains(err.Error(), "bad(") {
		t.Fatalf("CompileAll = %v; want the bad expression named", err)
	}
}

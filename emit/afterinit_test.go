package emit

import (
	"errors"
	"testing"
)

// A system message said before init waits for it, and follows it; one
// said after init is written at once. The provider's init stays first
// and keeps its permission mode and tools.
func TestSystemAfterInit(t *testing.T) {
	w, buf, _ := newTestWriter(Claude)
	if err := w.SystemAfterInit("notice", "agent type implementer: given as an instruction"); err != nil {
		t.Fatal(err)
	}
	if err := w.SystemAfterInit("warning", "the guard cannot stop its calls"); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Fatalf("written before init: %s", buf)
	}
	if err := w.Init("auto", []string{"Bash"}); err != nil {
		t.Fatal(err)
	}
	if err := w.SystemAfterInit("notice", "said later"); err != nil {
		t.Fatal(err)
	}
	if err := w.Result(Result{Text: "done"}); err != nil {
		t.Fatal(err)
	}
	lines := decodeLines(t, buf.Bytes())
	want := [][2]string{{"system", "init"}, {"system", "notice"}, {"system", "warning"}, {"system", "notice"}, {"result", "success"}, {"message_stop", ""}}
	if len(lines) != len(want) {
		t.Fatalf("%d lines: %s", len(lines), buf)
	}
	for i, l := range lines {
		if sub, _ := l["subtype"].(string); l["type"] != want[i][0] || sub != want[i][1] {
			t.Errorf("line %d: %v, want %v", i, l, want[i])
		}
	}
	if lines[0]["permissionMode"] != "auto" || lines[1]["message"] != "agent type implementer: given as an instruction" || lines[3]["message"] != "said later" {
		t.Errorf("lines %v", lines)
	}
	mustValidate(t, buf.Bytes())
}

// A run that fails before its provider's init still says them, after the
// default init its error brings.
func TestSystemAfterInitBeforeAnError(t *testing.T) {
	w, buf, _ := newTestWriter(Flat)
	_ = w.SystemAfterInit("notice", "branch not switched")
	if err := w.Fail(errors.New("the tree is held")); err != nil {
		t.Fatal(err)
	}
	lines := decodeLines(t, buf.Bytes())
	if len(lines) < 3 || lines[0]["subtype"] != "init" || lines[1]["message"] != "branch not switched" {
		t.Errorf("lines %v", lines)
	}
	mustValidate(t, buf.Bytes())
}

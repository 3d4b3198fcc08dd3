package main

import (
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"    a_test.go:9: quiet\n"}`,
		`{"Action":"pass","Package":"p","Test":"TestA","Elapsed":1.5}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:3: it broke\n"}`,
		`{"Action":"output","Package":"p","Test":"TestB/sub","Output":"        sub detail\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestB/sub","Elapsed":0.5}`,
		`{"Action":"fail","Package":"p","Test":"TestB","Elapsed":2.5}`,
		`{"Action":"output","Package":"p","Output":"FAIL\tp\t4.1s\n"}`,
		`{"Action":"fail","Package":"p","Elapsed":4.1}`,
		`{"Action":"output","Package":"q","Output":"ok  \tq\t0.1s\n"}`,
		`{"Action":"pass","Package":"q","Elapsed":0.1}`,
		`# q [build failed]`,
	}, "\n")
	var out strings.Builder
	r := &report{out: map[key]*strings.Builder{}, w: &out}
	if err := r.read(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	r.slowest(1)
	r.failures()
	got := out.String()
	for _, want := range []string{"b_test.go:3: it broke", "sub detail", "FAIL\tp\t4.1s", "ok  \tq\t0.1s", "# q [build failed]", "the 1 slowest of 2 tests", "2.5s  p TestB  FAIL", "the 1 slowest of 1 cases", "0.5s  p TestB/sub  FAIL", "why the failed tests failed"} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"quiet", "=== RUN", "p TestA"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("report has %q, of a test that passed or was not among the slowest:\n%s", unwanted, got)
		}
	}
	if !r.failed {
		t.Error("a failed test did not fail the report")
	}
	// The reasons come again at the very end, where a log cut to its tail
	// still has them; a detail line that is no report line does not.
	why := got[strings.LastIndex(got, "why the failed tests failed"):]
	if !strings.Contains(why, "p TestB\n      b_test.go:3: it broke") || strings.Contains(why, "sub detail") {
		t.Errorf("the end does not repeat TestB's reason alone:\n%s", why)
	}
}

//go:build linux && (amd64 || arm64)

package driver_test

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/yume-cli/yume-cli/heuristics"
	"github.com/yume-cli/yume-cli/permission"
)

// TestKeysToAProgramBlockedReading: a program blocked reading its terminal
// with everything it printed read draws nothing more, so an answer's keys
// go one at a time as each is taken (here, echoed), without waiting out
// the quiet period after each (3 s in this profile; a whole-process
// benchmark's answer waited 80 ms of generic's 40 ms before this).
func TestKeysToAProgramBlockedReading(t *testing.T) {
	prof, err := heuristics.ParseProfile("slow.yaml", []byte(`name: slow
description: a long quiet period
quiet_ms: 3000
rules:
  - name: apply
    match: '(?m)^(?P<prompt>Apply\?) \(y/n\) *$'
    kind: confirm
    approve: 'y<Enter>'
    deny: 'n<Enter>'
`))
	if err != nil {
		t.Fatal(err)
	}
	r := driveProfile(t, t.TempDir(), prof, permission.Auto, nil, nil, nil, "sh", "-c", `printf 'Apply? (y/n) '; read a; echo "got $a"`)
	if r.err != nil {
		t.Fatal(r.err)
	}
	var keys []float64
	sc := bufio.NewScanner(strings.NewReader(r.trace))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e struct {
			T     float64 `json:"t_ms"`
			Event string  `json:"event"`
			Why   string  `json:"why"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Event == "keys" && e.Why == "approve" {
			keys = append(keys, e.T)
		}
	}
	if len(keys) != 2 {
		t.Fatalf("approve keys typed %d times, want y and Enter one at a time:\n%s", len(keys), r.trace)
	}
	if gap := keys[1] - keys[0]; gap >= 3000 {
		t.Errorf("Enter went %.0f ms after y: it waited out the quiet period of a program blocked reading its terminal", gap)
	}
	if !strings.Contains(string(r.raw), "got y") {
		t.Errorf("the program did not read y:\n%s", r.raw)
	}
}

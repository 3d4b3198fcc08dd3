// Package tracedoc holds --trace lines to their description in
// docs/trace.md: every event a line carries is one the page lists, every
// field one the page lists for that event, of the type it says. Tests call
// Check on the traces they write, so the page and the code cannot part.
package tracedoc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// doc is the description read from docs/trace.md.
type doc struct {
	events map[string]map[string]bool // event -> its fields
	types  map[string]string          // field -> number, string, bool, array, object
}

// common are the fields every line may carry.
var common = []string{"t_ms", "state", "event", "typing"}

var (
	once   sync.Once
	loaded *doc
	err    error
)

// load reads docs/trace.md from the module's root, found from the working
// directory up.
func load() (*doc, error) {
	once.Do(func() {
		dir, _ := os.Getwd()
		for {
			if _, e := os.Stat(filepath.Join(dir, "go.mod")); e == nil {
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				err = fmt.Errorf("tracedoc: no go.mod above the working directory")
				return
			}
			dir = parent
		}
		b, e := os.ReadFile(filepath.Join(dir, "docs", "trace.md"))
		if e != nil {
			err = e
			return
		}
		loaded, err = parse(b)
	})
	return loaded, err
}

// parse reads the page's two tables: events (| `event` | when | `f`, `g` |)
// and fields (| `field` | type | meaning |).
func parse(b []byte) (*doc, error) {
	d := &doc{events: map[string]map[string]bool{}, types: map[string]string{}}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimPrefix(line, "## ")
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		switch section {
		case "Events":
			fields := map[string]bool{}
			for _, f := range strings.Split(cells[3], ",") {
				if f = strings.Trim(strings.TrimSpace(f), "`"); f != "" {
					fields[f] = true
				}
			}
			d.events[name] = fields
		case "Fields":
			d.types[name] = strings.TrimSpace(cells[2])
		}
	}
	if len(d.events) == 0 || len(d.types) == 0 {
		return nil, fmt.Errorf("tracedoc: docs/trace.md has no Events or Fields table")
	}
	return d, nil
}

// Check fails t for every line of trace that the page does not describe.
func Check(t testing.TB, trace []byte) {
	t.Helper()
	d, e := load()
	if e != nil {
		t.Fatal(e)
	}
	for i, line := range bytes.Split(bytes.TrimSpace(trace), []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if problem := d.check(line); problem != "" {
			t.Errorf("trace line %d is not as docs/trace.md says: %s\n%s", i+1, problem, line)
		}
	}
}

// check says what in one line the page does not describe ("" if nothing).
func (d *doc) check(line []byte) string {
	var m map[string]json.RawMessage
	if e := json.Unmarshal(line, &m); e != nil {
		return "not a JSON object: " + e.Error()
	}
	var event string
	if json.Unmarshal(m["event"], &event) != nil {
		return "no event"
	}
	fields, ok := d.events[event]
	if !ok {
		return fmt.Sprintf("event %q is not listed", event)
	}
	for k, v := range m {
		if !fields[k] && !isCommon(k) {
			return fmt.Sprintf("field %q is not listed for event %q", k, event)
		}
		if want := d.types[k]; want != "" && kind(v) != want {
			return fmt.Sprintf("field %q is a %s, the page says %s", k, kind(v), want)
		}
	}
	if of, ok := m["of"]; ok {
		return d.check(of)
	}
	return ""
}

func isCommon(k string) bool {
	for _, c := range common {
		if c == k {
			return true
		}
	}
	return false
}

// kind is the JSON type of v, in the page's words.
func kind(v json.RawMessage) string {
	switch t := bytes.TrimSpace(v); {
	case len(t) == 0:
		return "nothing"
	case t[0] == '"':
		return "string"
	case t[0] == '{':
		return "object"
	case t[0] == '[':
		return "array"
	case t[0] == 't' || t[0] == 'f':
		return "bool"
	case t[0] == 'n':
		return "null"
	}
	return "number"
}

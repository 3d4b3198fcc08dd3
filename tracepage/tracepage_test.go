package tracepage

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/recordings"
)

// TestCollectorTimesTools: a stream event takes the time of the trace line
// written before it, in either protocol, and everything is passed on.
func TestCollectorTimesTools(t *testing.T) {
	var c Collector
	var stream, trace bytes.Buffer
	sw, tw := c.Stream(&stream), c.Trace(&trace)
	write := func(w interface{ Write([]byte) (int, error) }, s string) {
		t.Helper()
		if _, err := w.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	write(sw, `{"type":"system","subtype":"init"}`+"\n")
	write(tw, `{"t_ms":12.5,"state":"idle","event":"rule","rule":"r","fired":true,"rows":[3]}`+"\n")
	// A line in two writes is one line.
	write(sw, `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_1","name":"Bash",`)
	write(sw, `"input":{"command":"ls"}}]}}`+"\n")
	write(tw, `{"t_ms":40,"state":"capturing","event":"move","detail":"x"}`+"\n")
	write(sw, `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"a\nb","is_error":true}]}}`+"\n")
	write(sw, `{"type":"tool_use","id":"toolu_2","name":"Bash","input":{"command":"pwd"}}`+"\n") // flat
	write(sw, `{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}`+"\n")

	p := c.Page("x.cast", "about", []byte("{}\n"), nil)
	got, _ := json.Marshal(p.Tools)
	want := `[{"t_ms":12.5,"after":1,"kind":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}},` +
		`{"t_ms":40,"after":2,"kind":"tool_result","id":"toolu_1","content":"a\nb","is_error":true},` +
		`{"t_ms":40,"after":2,"kind":"tool_use","id":"toolu_2","name":"Bash","input":{"command":"pwd"}}]`
	if string(got) != want {
		t.Errorf("tools:\n%s\nwant\n%s", got, want)
	}
	if len(p.Trace) != 2 {
		t.Errorf("%d trace lines, want 2", len(p.Trace))
	}
	if n := strings.Count(stream.String(), "\n"); n != 5 {
		t.Errorf("stream passed on %d lines, want 5", n)
	}
	if n := strings.Count(trace.String(), "\n"); n != 2 {
		t.Errorf("trace passed on %d lines, want 2", n)
	}

	// Another trace (a live run's): the tools are placed by time alone.
	live := []json.RawMessage{json.RawMessage(`{"t_ms":1,"state":"idle","event":"state","detail":"d"}`)}
	p = c.Page("x.cast", "about", nil, live)
	if len(p.Trace) != 1 || p.Tools[0].After != -1 {
		t.Errorf("with a trace given: %d lines, tool after %d", len(p.Trace), p.Tools[0].After)
	}
}

// TestClockShift: a live trace's keys, paired with the recorded input, put
// its times on the recording's clock; pairs that disagree shift nothing.
func TestClockShift(t *testing.T) {
	cast := &recordings.Cast{Events: []recordings.Event{
		{Time: 8 * time.Millisecond, Code: recordings.CodeOutput, Data: "rm: remove regular file 'x'? "},
		{Time: 18577 * time.Microsecond, Code: recordings.CodeInput, Data: "y"},
		{Time: 18732 * time.Microsecond, Code: recordings.CodeOutput, Data: "y"},
		{Time: 24052 * time.Microsecond, Code: recordings.CodeInput, Data: "\r"},
	}}
	keys := func(ms ...float64) []json.RawMessage {
		var out []json.RawMessage
		for i, t := range ms {
			k := []string{"y", "\\r"}[i]
			out = append(out, json.RawMessage(`{"t_ms":`+strconv.FormatFloat(t, 'f', -1, 64)+`,"state":"answering","event":"keys","keys":"`+k+`"}`))
		}
		return out
	}
	for _, tc := range []struct {
		trace []json.RawMessage
		want  float64
	}{
		{keys(16.324, 22.337), 2.253},
		{keys(16.324, 1), 0}, // 2.3 ms and 23.1 ms apart: not this recording's run
		{nil, 0},
	} {
		if got := ClockShift(cast, tc.trace); got != tc.want {
			t.Errorf("ClockShift = %v, want %v", got, tc.want)
		}
	}
}

func TestReadTrace(t *testing.T) {
	lines, err := ReadTrace(strings.NewReader("{\"t_ms\":0,\"state\":\"idle\",\"event\":\"screen\",\"screen\":[\"a\"]}\n\n{\"t_ms\":1.5,\"event\":\"keys\",\"keys\":\"\\r\"}\n"))
	if err != nil || len(lines) != 2 {
		t.Fatalf("ReadTrace = %d lines, %v", len(lines), err)
	}
	for _, bad := range []string{"{\"t_ms\":0,\"event\":\"move\"}\nnot json\n", "{\"event\":\"move\"}\n", "{\"type\":\"assistant\"}\n"} {
		if _, err := ReadTrace(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line ") {
			t.Errorf("ReadTrace(%q) = %v, want an error naming the line", bad, err)
		}
	}
	if lines, err := ReadTrace(strings.NewReader("")); err != nil || lines == nil {
		t.Errorf("an empty trace: %v, %v (want an empty, not nil, trace)", lines, err)
	}
}

// TestPageIsSelfContained: one file, nothing fetched, nothing that ends an
// inlined script early, the data readable back.
func TestPageIsSelfContained(t *testing.T) {
	for name, s := range map[string]string{"player JS": playerJS, "page JS": pageJS, "player CSS": playerCSS, "page CSS": pageCSS} {
		if strings.Contains(strings.ToLower(s), "</script") || strings.Contains(strings.ToLower(s), "</style") {
			t.Errorf("%s holds a closing tag that would end its inlined element", name)
		}
	}
	p := &Page{
		Title: `a <b>.cast`, About: "this replay",
		Cast:  []byte("{\"version\": 2, \"width\": 80, \"height\": 24}\n[0.1, \"o\", \"</script><script>alert(1)</script>\"]\n"),
		Trace: []json.RawMessage{json.RawMessage(`{"t_ms":1,"state":"idle","event":"screen","screen":["</script>"]}`)},
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, "</script>"); n != 3 { // data, player, page
		t.Errorf("%d </script> in the page, want 3: the data ended its script early", n)
	}
	if strings.Contains(page, "<b>") {
		t.Error("the title is not escaped")
	}
	// Nothing loaded from elsewhere: no src= or href= at all, and the
	// page's policy allows no fetch.
	if m := regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]*(src|href)=`).FindString(page); m != "" {
		t.Errorf("the page loads a file: %s", m)
	}
	if !strings.Contains(page, "default-src 'none'") {
		t.Error("the page has no content security policy forbidding fetches")
	}
	start := strings.Index(page, `<script type="application/json" id="data">`)
	end := strings.Index(page[start:], "</script>")
	var data struct {
		Cast  string
		Trace []map[string]any
		Tools []Tool
	}
	if err := json.Unmarshal([]byte(page[start+len(`<script type="application/json" id="data">`):start+end]), &data); err != nil {
		t.Fatal(err)
	}
	if data.Cast != string(p.Cast) || len(data.Trace) != 1 || data.Tools == nil {
		t.Errorf("data read back: %+v", data)
	}
}

package run

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/emit"
)

// TestReadLine: generated lines of every length around the limit, with
// LF or CRLF, through a small buffer: each line comes back whole or, when
// longer than the limit, as "too long" without disturbing the next one.
func TestReadLine(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	const max = 100
	for i := 0; i < 200; i++ {
		var in bytes.Buffer
		var want []string
		for j := rng.IntN(20); j >= 0; j-- {
			n := rng.IntN(3 * max)
			line := strings.Repeat(string(rune('a'+j%26)), n)
			in.WriteString(line)
			if rng.IntN(2) == 0 {
				in.WriteString("\r")
			}
			in.WriteString("\n")
			if n > max {
				line = "<long>"
			}
			want = append(want, line)
		}
		r := bufio.NewReaderSize(&in, 16)
		var got []string
		for {
			line, long, err := readLine(r, max)
			if long {
				got = append(got, "<long>")
			} else if err == nil || len(line) > 0 {
				got = append(got, string(line))
			}
			if err != nil {
				if err != io.EOF {
					t.Fatal(err)
				}
				break
			}
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("seed %d case %d:\n got %q\nwant %q", seed, i, got, want)
		}
	}
}

// TestControlsSurviveALongLine: a frame over the limit is reported and
// skipped; the next frame still arrives (the channel stays open).
func TestControlsSurviveALongLine(t *testing.T) {
	in := strings.NewReader(`{"type":"user","content":"` + strings.Repeat("x", maxControlLine) + "\"}\n" +
		`{"type":"tool_approval","id":"toolu_1","approved":true}` + "\n")
	var out bytes.Buffer
	w := emit.NewWriter(&out, emit.Config{})
	cfg := &Config{IO: &IOStreams{In: in}}
	ch := readControls(context.Background(), cfg, w)
	f, ok := <-ch
	if !ok || f.Kind != emit.ControlApproval || f.ToolUseID != "toolu_1" {
		t.Fatalf("got %+v (ok %v), want the approval after the long line", f, ok)
	}
	if _, ok := <-ch; ok {
		t.Error("the channel did not close at EOF")
	}
	if want := fmt.Sprintf("stdin line 1: a control frame longer than %d bytes; it was skipped", maxControlLine); !strings.Contains(out.String(), want) {
		t.Errorf("stream %q does not say %q", out.String(), want)
	}
}

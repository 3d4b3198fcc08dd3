//go:build unix

package ptyhost

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
	"time"
)

// TestReaderDirectKeepsEveryByte: a live process (also behind a key
// writer) is read straight into the ring, and every byte arrives whole
// and in order through rings of any size, taken at any pace, with the end
// after the last of them; a recording-like wrapper keeps the ReadChunk
// path. Seeded.
func TestReaderDirectKeepsEveryByte(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	var want strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&want, "line %d\r\n", i)
	}
	for i := range 6 {
		p, err := Start(Options{Argv: []string{"sh", "-c", "i=0; while [ $i -lt 20000 ]; do echo \"line $i\"; i=$((i+1)); done"}, Cols: 80, Rows: 24})
		if err != nil {
			t.Fatal(err)
		}
		var term Terminal = p
		if i%2 == 1 {
			term = NewKeyWriter(p)
		}
		if directOf(term) != p {
			t.Fatalf("directOf(%T) is not the process", term)
		}
		r := NewReader(term, 64+rng.Intn(8<<10), nil, nil)
		r.Start()
		var got bytes.Buffer
		for {
			ended := false
			select {
			case <-r.Ended():
				ended = true
			default:
			}
			if rng.Intn(4) == 0 {
				time.Sleep(time.Duration(rng.Intn(200)) * time.Microsecond)
			}
			r.Take(func(b []byte) { got.Write(b) })
			if ended && !r.Held() {
				break
			}
		}
		if r.Err() != io.EOF {
			t.Fatalf("Err() = %v, want io.EOF", r.Err())
		}
		if got.String() != want.String() {
			t.Fatalf("run %d: got %d bytes, want %d, or they differ", i, got.Len(), want.Len())
		}
		r.Stop()
		_ = p.Close()
	}
	if directOf(&chunkTerm{}) != nil {
		t.Error("a terminal that is not a process (a recording, a replay) was read directly")
	}
}

// TestReaderTellsOfQuestionsDirect: a live process's chunk read straight
// into the ring that ends with a question is told of (SetAsking).
func TestReaderTellsOfQuestionsDirect(t *testing.T) {
	p, err := Start(Options{Argv: []string{"printf", `frame\033[6n`}, Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	asked := make(chan struct{}, 4)
	r := NewReader(p, DefaultRing, nil, nil)
	r.SetAsking(endsWithDSR, func() { asked <- struct{}{} })
	r.Start()
	<-r.Ended()
	var got bytes.Buffer
	r.Take(func(b []byte) { got.Write(b) })
	if len(asked) != 1 || !bytes.HasSuffix(got.Bytes(), []byte("\x1b[6n")) {
		t.Fatalf("told of %d questions; output %q", len(asked), got.String())
	}
}

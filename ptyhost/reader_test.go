package ptyhost

import (
	"bytes"
	"io"
	"math/rand"
	"os"
	"strconv"
	"testing"
	"time"
)

// chunkTerm is a Terminal whose output is a fixed list of chunks.
type chunkTerm struct {
	Terminal
	chunks [][]byte
}

func (t *chunkTerm) ReadChunk() ([]byte, time.Duration, error) {
	if len(t.chunks) == 0 {
		return nil, 0, io.EOF
	}
	c := t.chunks[0]
	t.chunks = t.chunks[1:]
	return c, time.Duration(len(t.chunks)), nil
}

// TestReaderKeepsEveryByte: chunks of any size through a small ring, taken
// by a consumer at its own pace, whole or a part at a time (TakeSome), arrive
// whole and in order, and the end comes after the last of them. Seeded; YUME_SEED repeats a run.
func TestReaderKeepsEveryByte(t *testing.T) {
	seed := time.Now().UnixNano()
	if s := os.Getenv("YUME_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	for range 50 {
		var want bytes.Buffer
		term := &chunkTerm{}
		for range 1 + rng.Intn(300) {
			c := make([]byte, 1+rng.Intn(5000))
			rng.Read(c)
			want.Write(c)
			term.chunks = append(term.chunks, c)
		}
		r := NewReader(term, 1024+rng.Intn(16<<10), nil, nil)
		r.Start()
		var got bytes.Buffer
		for {
			ended := false
			select {
			case <-r.Ended():
				ended = true
			default:
			}
			if rng.Intn(2) == 0 {
				r.Take(func(p []byte) { got.Write(p) })
			} else {
				r.TakeSome(func(p []byte) int { // the start of it, the rest left
					k := rng.Intn(len(p) + 1)
					got.Write(p[:k])
					return k
				})
			}
			if ended && !r.Held() {
				break
			}
		}
		if r.Err() != io.EOF {
			t.Fatalf("Err() = %v, want io.EOF", r.Err())
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("got %d bytes, want %d, or they differ", got.Len(), want.Len())
		}
		r.Stop()
	}
}

// TestReaderTellsOfQuestions: every chunk that ends with a question to
// the terminal is told of (SetAsking) as it is handed over, and no other
// chunk is; read through a copy here (a wrapped terminal), straight into
// the ring in TestReaderTellsOfQuestionsDirect.
func TestReaderTellsOfQuestions(t *testing.T) {
	term := &chunkTerm{chunks: [][]byte{[]byte("drawn"), []byte("where am I?\x1b[6n"), []byte("\x1b[6n and on"), []byte("\x1b[6n")}}
	var asked int
	r := NewReader(term, 1<<10, nil, nil)
	r.SetAsking(endsWithDSR, func() { asked++ })
	r.Start()
	<-r.Ended()
	if asked != 2 {
		t.Fatalf("told of %d questions, want 2", asked)
	}
}

// endsWithDSR is the question of the tests: a cursor position query.
func endsWithDSR(c []byte) bool { return bytes.HasSuffix(c, []byte("\x1b[6n")) }

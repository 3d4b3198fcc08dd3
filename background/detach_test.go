package background

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// Nobody reads the pipe (Yume's background agents): writes never wait,
// past the limit they are dropped, and Close gives up once the pipe has
// taken nothing for the idle time.
func TestDetachedUnreadPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	d := Detach(w, 1<<20)
	line := []byte(strings.Repeat("x", 1023) + "\n")
	done := make(chan struct{})
	go func() {
		for i := 0; i < 2048; i++ { // 2 MiB: the pipe holds 64 KiB, the queue 1 MiB
			if _, err := d.Write(line); err != nil {
				t.Error(err)
			}
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute): // writes take microseconds: only a wait for the reader takes this long
		t.Fatal("a write waited for a reader that never reads")
	}
	// Close returns (a hang is the test's timeout), dropping what is left.
	lost := d.Close(200 * time.Millisecond)
	if lost < 1<<20 || lost > 2<<20 {
		t.Errorf("lost %d bytes, want what neither the pipe nor the queue held", lost)
	}
}

// A reader that reads gets everything, in order, Close waiting for it.
func TestDetachedSlowReader(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	d := Detach(w, 0)
	var got bytes.Buffer
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		buf := make([]byte, 4096)
		for {
			time.Sleep(time.Millisecond)
			n, err := r.Read(buf)
			got.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	var want bytes.Buffer
	for i := 0; i < 3000; i++ {
		line := []byte(strings.Repeat(string(rune('a'+i%26)), 100) + "\n")
		want.Write(line)
		if _, err := d.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	// Close returns once all is read; the idle time only bounds a reader
	// that stops, and is long so that a busy machine's reader is not one.
	if lost := d.Close(time.Minute); lost != 0 {
		t.Errorf("lost %d bytes with a reader reading", lost)
	}
	_ = w.Close()
	wg.Wait()
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("read %d bytes, want the %d written, in order", got.Len(), want.Len())
	}
}

// A reader that goes away: the pipe's error comes back from Write, as it
// would from the pipe itself (the GUI-gone watch needs it).
func TestDetachedReaderGone(t *testing.T) {
	d := Detach(failingWriter{}, 0)
	_, _ = d.Write([]byte("one\n"))
	deadline := time.Now().Add(5 * time.Second)
	var err error
	for err == nil && time.Now().Before(deadline) {
		_, err = d.Write([]byte("two\n"))
		time.Sleep(time.Millisecond) // Polling: the copy runs in the background.
	}
	if !errors.Is(err, errWrite) {
		t.Errorf("write after the reader went: %v", err)
	}
	if lost := d.Close(time.Second); lost != 0 {
		t.Errorf("lost %d", lost)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

var _ io.Writer = (*Detached)(nil)

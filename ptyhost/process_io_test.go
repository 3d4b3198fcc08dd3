//go:build unix

package ptyhost_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/internal/leakcheck"
	"github.com/yume-cli/yume-cli/ptyhost"
)

func TestProcessReadsEveryByteOf50MiB(t *testing.T) {
	const size = 50 << 20
	p := start(t, helper("flood", strconv.Itoa(size)))
	watchdogAfter(t, p, 5*time.Minute) // 50 MiB at a few MB/s when the machine is busy.
	got := sha256.New()
	n := 0
	var last time.Duration
	for {
		chunk, at, err := p.ReadChunk()
		if at < last {
			t.Fatalf("ReadChunk time went back from %v to %v", last, at)
		}
		last = at
		n += len(chunk)
		got.Write(chunk)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("ReadChunk after %d bytes: %v", n, err)
		}
	}
	want := sha256.New()
	var s floodStream
	buf := make([]byte, 1<<20)
	for i := 0; i < size; i += len(buf) {
		s.fill(buf)
		want.Write(buf)
	}
	if n != size || !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
		t.Errorf("read %d bytes, sha256 %x; want %d bytes, sha256 %x", n, got.Sum(nil), size, want.Sum(nil))
	}
	if st, err := p.Wait(); !st.Success() || err != nil {
		t.Errorf("Wait() = %+v, %v; want success", st, err)
	}
}

func TestProcessWriteReachesChild(t *testing.T) {
	tests := []struct {
		name  string
		opts  ptyhost.Options
		ready string // wait for this before typing
		keys  string
		want  string
	}{
		// Enter is CR; the terminal turns it into the LF a line read ends with.
		{"line", helper("echo"), "", "hello\r", "<hello\r\n>"},
		// Ctrl-D ends a canonical read without a newline.
		{"no newline", helper("echo"), "", "abc\x04", "<abc>"},
		{"raw mode", shell(`stty raw -echo; printf ready; head -c 6`), "ready", "a\x1bb\x7fé", "a\x1bb\x7fé"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t, tt.opts)
			var out bytes.Buffer
			if tt.ready != "" {
				readUntil(t, p, &out, tt.ready)
				out.Reset()
			}
			if n, err := p.Write([]byte(tt.keys)); err != nil || n != len(tt.keys) {
				t.Fatalf("Write(%q) = %d, %v", tt.keys, n, err)
			}
			readUntil(t, p, &out, tt.want)
		})
	}
}

func TestProcessWindowSize(t *testing.T) {
	tests := []struct {
		cols, rows int
		want       string
	}{
		{0, 0, "40 120"}, // The default.
		{80, 24, "24 80"},
		{1, 1, "1 1"},
		{300, 100, "100 300"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			opts := shell("stty size")
			opts.Cols, opts.Rows = tt.cols, tt.rows
			p := start(t, opts)
			if got := strings.TrimSpace(string(readAll(t, p))); got != tt.want {
				t.Errorf("stty size = %q; want %q", got, tt.want)
			}
		})
	}
}

func TestProcessResize(t *testing.T) {
	tests := []struct {
		name  string
		opts  ptyhost.Options
		then  string // keys that make the child print the size again; "" when SIGWINCH does
		first string
		after string
	}{
		{"SIGWINCH", helper("winch"), "", "size 24 80\n", "size 30 100\n"},
		{"stty rerun", shell("stty -echo; stty size; read x; stty size"), "\r", "24 80\n", "30 100\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Cols, opts.Rows = 80, 24
			p := start(t, opts)
			var out bytes.Buffer
			readUntil(t, p, &out, strings.ReplaceAll(tt.first, "\n", "\r\n"))
			if err := p.Resize(100, 30); err != nil {
				t.Fatalf("Resize: %v", err)
			}
			if tt.then != "" {
				if _, err := p.Write([]byte(tt.then)); err != nil {
					t.Fatalf("Write: %v", err)
				}
			}
			out.Reset()
			readUntil(t, p, &out, strings.ReplaceAll(tt.after, "\n", "\r\n"))
			if err := p.Resize(0, 30); err == nil {
				t.Error("Resize(0, 30) succeeded; want an error")
			}
		})
	}
}

// The kernel hands over output the child wrote just before exiting before it
// reports EIO; each run must see all of it.
func TestProcessOutputBeforeExitIsNotLost(t *testing.T) {
	leakcheck.Check(t)
	for i := range 50 {
		p, err := ptyhost.Start(shell("printf 'last words'"))
		if err != nil {
			t.Fatal(err)
		}
		got := readAll(t, p)
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if string(got) != "last words" {
			t.Fatalf("run %d: read %q; want %q", i, got, "last words")
		}
	}
}

// Bytes are bytes: a rune whose bytes arrive in two reads is passed on
// exactly, split where the child split it.
func TestProcessRuneSplitAcrossReads(t *testing.T) {
	p := start(t, shell(`stty -echo; printf '\342'; read x; printf '\202\254'`))
	watchdog(t, p)
	first, _, err := p.ReadChunk()
	if err != nil || string(first) != "\xe2" {
		t.Fatalf("first ReadChunk = %q, %v; want the rune's first byte", first, err)
	}
	got := string(first) // Copy: the next ReadChunk reuses the buffer.
	if _, err := p.Write([]byte("\r")); err != nil {
		t.Fatal(err)
	}
	got += string(readAll(t, p))
	if got != "€" {
		t.Errorf("read %q; want %q", got, "€")
	}
}

func TestProcessEnvironmentAndDir(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		env  []string
		want string
	}{
		{"inherited env gets TERM", nil, "xterm-256color|yes"},
		{"given env gets TERM", []string{"YUME_T=yes"}, "xterm-256color|yes"},
		{"given TERM kept", []string{"TERM=vt100", "YUME_T=yes"}, "vt100|yes"},
	}
	t.Setenv("YUME_T", "yes")
	t.Setenv("TERM", "restored after the test")
	if err := os.Unsetenv("TERM"); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := shell(`printf '%s|%s|%s' "$TERM" "$YUME_T" "$(pwd -P)"`)
			opts.Env, opts.Dir = tt.env, dir
			p := start(t, opts)
			if got, want := string(readAll(t, p)), tt.want+"|"+dir; got != want {
				t.Errorf("child saw %q; want %q", got, want)
			}
		})
	}
}

// The read path must keep up with a flood: ReadChunk reuses one buffer.
func TestProcessReadChunkDoesNotAllocate(t *testing.T) {
	p := start(t, helper("flood", strconv.Itoa(1<<30)))
	watchdog(t, p)
	var err error
	allocs := testing.AllocsPerRun(500, func() {
		if err == nil {
			_, _, err = p.ReadChunk()
		}
	})
	if err != nil {
		t.Fatalf("ReadChunk: %v", err)
	}
	if allocs != 0 {
		t.Errorf("ReadChunk allocates %.1f times per call; want 0", allocs)
	}
}

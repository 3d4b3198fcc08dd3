package vt

import (
	"bytes"
	"fmt"
	"testing"
)

// benchColoured is coloured test-runner style output: SGR-heavy lines
// ending in CRLF that keep the screen scrolling.
func benchColoured() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "\x1b[32m✓\x1b[0m \x1b[1mpkg/sub%d\x1b[0m \x1b[2m(%dms)\x1b[0m "+
			"TestSomething_%d passed with \x1b[38;5;208mwarnings\x1b[39m and \x1b[38;2;10;200;30mrgb\x1b[m\r\n",
			i, i%97, i)
	}
	return b.Bytes()
}

// benchPlain is uncoloured log output.
func benchPlain() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "2024-05-01T12:00:%02d.000Z INFO server: handled request id=%d path=/api/v1/items status=200\r\n", i%60, i)
	}
	return b.Bytes()
}

// benchCursor is a full-screen TUI redrawing itself: absolute cursor
// moves, erases and short styled fragments on every row.
func benchCursor() []byte {
	var b bytes.Buffer
	for f := 0; b.Len() < 1<<20; f++ {
		b.WriteString("\x1b[?2026h\x1b[?25l")
		for r := 1; r <= 40; r++ {
			fmt.Fprintf(&b, "\x1b[%d;1H\x1b[2K\x1b[38;5;%dm│\x1b[0m item %d\x1b[%d;60H\x1b[7m%3d%%\x1b[27m", r, r%256, f+r, r, (f*r)%100)
		}
		b.WriteString("\x1b[40;1H\x1b[?25h\x1b[?2026l")
	}
	return b.Bytes()
}

// benchScreen feeds data in 4 KiB chunks, as a PTY read loop would. One
// pass before timing fills the scrollback ring, so the figures are the
// steady state.
func benchScreen(b *testing.B, data []byte) {
	s := NewScreen(120, 40)
	s.Write(data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		for off := 0; off < len(data); off += 4096 {
			s.Write(data[off:min(off+4096, len(data))])
		}
	}
}

func BenchmarkScreenWrite(b *testing.B)       { benchScreen(b, benchColoured()) }
func BenchmarkScreenWritePlain(b *testing.B)  { benchScreen(b, benchPlain()) }
func BenchmarkScreenWriteCursor(b *testing.B) { benchScreen(b, benchCursor()) }

// BenchmarkScreenWriteRetire measures coloured output with OnRetire set:
// one string per retired line is the only allocation.
func BenchmarkScreenWriteRetire(b *testing.B) {
	data := benchColoured()
	s := NewScreen(120, 40)
	var n int
	s.OnRetire(func(line string, _ bool) { n += len(line) })
	s.Write(data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		for off := 0; off < len(data); off += 4096 {
			s.Write(data[off:min(off+4096, len(data))])
		}
	}
}

//go:build unix

package ptyhost_test

import (
	"errors"
	"io"
	"strconv"
	"syscall"
	"testing"

	"github.com/yume-cli/yume-cli/ptyhost"
)

// BenchmarkReadThroughput measures how fast a child's output flood gets
// through Process.ReadChunk, next to the plain creack/pty read-and-discard
// loop it is held to (target: at least 90% of the baseline's MB/s).
func BenchmarkReadThroughput(b *testing.B) {
	const size = 32 << 20
	b.Run("Process.ReadChunk", func(b *testing.B) {
		b.SetBytes(size)
		reads := 0
		for b.Loop() {
			p, err := ptyhost.Start(helper("flood", strconv.Itoa(size)))
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for {
				chunk, _, err := p.ReadChunk()
				n += len(chunk)
				reads++
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			if st, err := p.Wait(); n != size || !st.Success() || err != nil {
				b.Fatalf("read %d of %d bytes; child %+v, %v", n, size, st, err)
			}
			_ = p.Close()
		}
		b.ReportMetric(float64(reads)/float64(b.N), "reads/op")
	})
	b.Run("creack-pty baseline", func(b *testing.B) {
		b.SetBytes(size)
		buf := make([]byte, 64<<10)
		reads := 0
		for b.Loop() {
			f, cmd := startRaw(b, "flood", size)
			n := 0
			for {
				m, err := f.Read(buf)
				n += m
				reads++
				if errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO) {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			if err := cmd.Wait(); n != size || err != nil {
				b.Fatalf("read %d of %d bytes; child: %v", n, size, err)
			}
			_ = f.Close()
		}
		b.ReportMetric(float64(reads)/float64(b.N), "reads/op")
	})
}

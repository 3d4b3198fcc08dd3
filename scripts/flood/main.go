// Command flood is the benchmark workload shared by yume-cli and its peers
// (scripts/compare.sh, bench/): it prints N bytes of SGR-coloured log
// lines, then asks "Apply these changes? (y/n) " and exits 0 on "y", 1
// otherwise. With -stamp FILE it writes to FILE the wall clock (Unix
// nanoseconds) taken just before the question is written, so a benchmark
// can time question → tool_use across processes.
//
// By default each line is built as it is printed (fmt.Sprintf), as a
// program that computes its output does: the producer then spends most of
// its time computing, and a reader's cost hides on another core. With
// -fast the same kind of lines are built once into a buffer and written
// from it at full speed, so what the reader costs shows.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	n := flag.Int("bytes", 100<<20, "bytes of coloured output before the question")
	stamp := flag.String("stamp", "", "write the time the question is printed (Unix ns) to this file")
	fast := flag.Bool("fast", false, "write pre-built lines from a buffer (the producer computes nothing)")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	if *fast {
		writeFast(*n)
	} else {
		for i := 0; *n > 0; i++ {
			line := logLine(i)
			if len(line) > *n {
				line = strings.Repeat(".", *n) // no sequence cut in two
			}
			w.WriteString(line)
			*n -= len(line)
		}
	}
	if err := w.Flush(); err != nil {
		os.Exit(2)
	}
	// The stamp file is made before the question and written after it,
	// the time taken just before the question is written: creating it took
	// 0.9 ms (median; 10 ms at p99 on a busy disk), timed as yume-cli's
	// when it came first, and when it came after the question the program
	// was still at work, not reading its terminal, while yume-cli looked.
	var f *os.File
	if *stamp != "" {
		var err error
		if f, err = os.OpenFile(*stamp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "flood:", err)
			os.Exit(2)
		}
	}
	asked := time.Now().UnixNano()
	fmt.Fprint(w, "\nApply these changes? (y/n) ")
	if err := w.Flush(); err != nil {
		os.Exit(2)
	}
	if f != nil {
		if _, err := f.WriteString(strconv.FormatInt(asked, 10)); err != nil || f.Close() != nil {
			fmt.Fprintln(os.Stderr, "flood: writing the stamp failed")
			os.Exit(2)
		}
	}
	var answer string
	fmt.Scanln(&answer)
	if answer != "y" {
		os.Exit(1)
	}
}

func logLine(i int) string {
	return fmt.Sprintf("\x1b[2m%06d\x1b[0m \x1b[32mINFO\x1b[0m compiling \x1b[1mpackage/%d\x1b[0m … ok \x1b[36m%dms\x1b[0m\n", i, i%97, i%13)
}

// writeFast prints n bytes of log lines built once (about 1 MiB of them,
// written again and again) in 64 KiB writes straight to the terminal; the
// last bytes are dots where a whole line would not fit.
func writeFast(n int) {
	var block []byte
	for i := 0; len(block) < 1<<20; i++ {
		block = append(block, logLine(i)...)
	}
	lines := bytes.LastIndexByte(block[:n%len(block)], '\n') + 1 // the last block, in whole lines
	tail := append(block[:lines:lines], bytes.Repeat([]byte("."), n%len(block)-lines)...)
	for ; n >= len(block); n -= len(block) {
		write(block)
	}
	write(tail)
}

// write writes p to stdout in 64 KiB writes.
func write(p []byte) {
	for len(p) > 0 {
		k := min(len(p), 64<<10)
		if _, err := os.Stdout.Write(p[:k]); err != nil {
			os.Exit(2)
		}
		p = p[k:]
	}
}

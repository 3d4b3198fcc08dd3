// Command flood is the benchmark workload shared by yume-cli and its peers
// (scripts/compare.sh, bench/): it prints N bytes of SGR-coloured log
// lines, then asks "Apply these changes? (y/n) " and exits 0 on "y", 1
// otherwise. With -stamp FILE it writes the wall clock (Unix nanoseconds)
// to FILE just before the question, so a benchmark can time question →
// tool_use across processes.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	n := flag.Int("bytes", 100<<20, "bytes of coloured output before the question")
	stamp := flag.String("stamp", "", "write the time the question is printed (Unix ns) to this file")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for i := 0; *n > 0; i++ {
		line := fmt.Sprintf("\x1b[2m%06d\x1b[0m \x1b[32mINFO\x1b[0m compiling \x1b[1mpackage/%d\x1b[0m … ok \x1b[36m%dms\x1b[0m\n", i, i%97, i%13)
		if len(line) > *n {
			line = line[:*n]
		}
		w.WriteString(line)
		*n -= len(line)
	}
	if err := w.Flush(); err != nil {
		os.Exit(2)
	}
	if *stamp != "" {
		if err := os.WriteFile(*stamp, []byte(strconv.FormatInt(time.Now().UnixNano(), 10)), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "flood:", err)
			os.Exit(2)
		}
	}
	fmt.Fprint(w, "\nApply these changes? (y/n) ")
	if err := w.Flush(); err != nil {
		os.Exit(2)
	}
	var answer string
	fmt.Scanln(&answer)
	if answer != "y" {
		os.Exit(1)
	}
}

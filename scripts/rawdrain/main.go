// Command rawdrain is the floor yume-cli is measured against: it runs a
// program in a creack/pty terminal, reads and discards its output, types
// "y" and Enter once the output ends in "(y/n) ", and exits with the
// program's status. Nothing is parsed: what yume-cli adds (a screen, rules,
// events) is what a whole-process benchmark against it measures.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rawdrain PROGRAM [ARGS…]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	f, err := pty.Start(cmd)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rawdrain:", err)
		os.Exit(2)
	}
	question := []byte("(y/n) ")
	buf := make([]byte, 64<<10)
	var tail []byte
	answered := false
	for {
		n, err := f.Read(buf)
		if !answered && n > 0 {
			tail = append(tail[:0], tail[max(0, len(tail)-len(question)):]...)
			tail = append(tail, buf[max(0, n-len(question)):n]...)
			if bytes.HasSuffix(tail, question) {
				_, _ = f.Write([]byte("y\r"))
				answered = true
			}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO) {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "rawdrain:", err)
			os.Exit(2)
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		os.Exit(exit.ExitCode())
	case err != nil:
		fmt.Fprintln(os.Stderr, "rawdrain:", err)
		os.Exit(2)
	}
}

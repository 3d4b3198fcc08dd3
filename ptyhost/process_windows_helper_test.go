//go:build windows

package ptyhost_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/yume-cli/yume-cli/internal/testchild"
	"golang.org/x/sys/windows"
)

// The child programs: this test binary, re-run in a mode.
func init() {
	testchild.Run(map[string]testchild.Mode{
		"exit": func(args []string) int { // exit N: say so, exit with N
			n, _ := strconv.ParseUint(args[0], 0, 32)
			fmt.Printf("exit %s\n", args[0])
			return int(n)
		},
		"echo": func([]string) int { // echo each line read as <line>
			in := bufio.NewScanner(os.Stdin)
			fmt.Println("ready")
			for in.Scan() {
				fmt.Printf("<%s>\n", in.Text())
			}
			return 0
		},
		"tree": func([]string) int { // a TUI: raw input (Ctrl-C is a key), reads none; starts a grandchild with no console
			signal.Notify(make(chan os.Signal, 1), os.Interrupt)
			if err := rawInput(); err != nil {
				fmt.Println(err)
				return 4
			}
			return startGrandchild(true, windows.DETACHED_PROCESS)
		},
		"orphan": func([]string) int { // start a grandchild and exit at once
			return startGrandchild(false, 0)
		},
		"sleep": func([]string) int { sleepForever(); return 0 },
		"deaf": func(args []string) int { // ignore Ctrl-C, draw nothing, say ready in file args[0]
			signal.Notify(make(chan os.Signal, 1), os.Interrupt)
			if err := os.WriteFile(args[0], []byte("ready"), 0o600); err != nil {
				return 4
			}
			sleepForever()
			return 0
		},
		"ctrlc-exit": func([]string) int { // exit 0 on Ctrl-C
			c := make(chan os.Signal, 1)
			signal.Notify(c, os.Interrupt)
			fmt.Println("ready")
			<-c
			fmt.Println("bye")
			return 0
		},
		"ctrlc-default": func([]string) int { // Ctrl-C ends it the default way
			fmt.Println("ready")
			sleepForever()
			return 0
		},
		"lines": func(args []string) int { // print N numbered lines and exit
			n, _ := strconv.Atoi(args[0])
			w := bufio.NewWriter(os.Stdout)
			for i := range n {
				fmt.Fprintf(w, "line %d\n", i)
			}
			_ = w.Flush()
			return 0
		},
		"args": func(args []string) int { // print each argument quoted
			for _, a := range args {
				fmt.Printf("arg %q\n", a)
			}
			return 0
		},
		"size": func([]string) int { // print the console's size, then again after each line read
			in := bufio.NewScanner(os.Stdin)
			for {
				var info windows.ConsoleScreenBufferInfo
				if err := windows.GetConsoleScreenBufferInfo(windows.Handle(os.Stdout.Fd()), &info); err != nil {
					fmt.Printf("size error %v\n", err)
					return 1
				}
				fmt.Printf("size %dx%d\n", info.Window.Right-info.Window.Left+1, info.Window.Bottom-info.Window.Top+1)
				if !in.Scan() {
					return 0
				}
			}
		},
	})
}

// startGrandchild starts this binary asleep (with creation flags),
// prints its pid, and then waits forever (wait) or exits.
func startGrandchild(wait bool, flags uint32) int {
	c := exec.Command(os.Args[0])
	c.Env = append(os.Environ(), "YUME_TEST_CHILD=sleep")
	c.SysProcAttr = &syscall.SysProcAttr{CreationFlags: flags}
	if err := c.Start(); err != nil {
		fmt.Println(err)
		return 4
	}
	fmt.Printf("grandchild %d\n", c.Process.Pid)
	if wait {
		sleepForever()
	}
	return 0
}

// sleepForever blocks for good (a bare select{} would end the program:
// the runtime reports a deadlock when no goroutine can run).
func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

// rawInput turns the console's input to raw, as a TUI does: Ctrl-C is
// then a key to read, not a signal.
func rawInput() error {
	in := windows.Handle(os.Stdin.Fd())
	var mode uint32
	if err := windows.GetConsoleMode(in, &mode); err != nil {
		return fmt.Errorf("console mode: %w", err)
	}
	return windows.SetConsoleMode(in, mode&^(windows.ENABLE_PROCESSED_INPUT|windows.ENABLE_LINE_INPUT|windows.ENABLE_ECHO_INPUT))
}

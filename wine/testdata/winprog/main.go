// Command winprog plays the programs the Wine suite drives through
// yume-cli.exe's PTY path, and looks at Windows processes for it. The
// suite builds it for Windows; each mode asks what a real program asks,
// the way a Windows console program asks it.
//
//	winprog prompt FILE     "Delete FILE? [y/N] " read as a line; y deletes FILE
//	winprog rmi FILE        rm -i's question, read as a line; y deletes FILE
//	winprog menu FILE       a survey arrow menu (console input events); writes the choice to FILE
//	winprog dialog FILE     a dialog no generic rule knows (a command under a heading, numbered
//	                        options, a ❯ pointer), as the AI TUIs draw; writes the choice to FILE
//	winprog tree PIDFILE    starts a grandchild on no console, writes "PID GRANDCHILD-PID" to
//	                        PIDFILE, then waits for good: reads no input, ignores Ctrl-C
//	winprog sleep           waits for good (the grandchild)
//	winprog exit N          prints a line and exits with status N
//	winprog gone PID...     waits (20 s at most) until each process PID has ended; exit 1 if one has not
//	winprog ps              lists the running processes, one "PID NAME" a line
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/AlecAivazis/survey/v2"
	"golang.org/x/sys/windows"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: winprog MODE ARGS")
		os.Exit(2)
	}
	args := os.Args[2:]
	switch os.Args[1] {
	case "prompt":
		os.Exit(ask(fmt.Sprintf("Delete %s? [y/N] ", args[0]), args[0]))
	case "rmi":
		os.Exit(ask(fmt.Sprintf("rm: remove regular file '%s'? ", args[0]), args[0]))
	case "menu":
		os.Exit(menu(args[0]))
	case "dialog":
		os.Exit(dialog(args[0]))
	case "tree":
		os.Exit(tree(args[0]))
	case "sleep":
		sleepForever()
	case "exit":
		n, _ := strconv.ParseUint(args[0], 0, 32)
		fmt.Printf("exiting with %s\n", args[0])
		os.Exit(int(n))
	case "gone":
		os.Exit(gone(args))
	case "ps":
		os.Exit(ps())
	}
	fmt.Fprintf(os.Stderr, "winprog: unknown mode %q\n", os.Args[1])
	os.Exit(2)
}

// ask asks question, reads a line, and deletes file on y.
func ask(question, file string) int {
	fmt.Print(question)
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil {
		fmt.Printf("\nno answer: %v\n", err)
		return 3
	}
	if strings.TrimSpace(strings.ToLower(line)) != "y" {
		fmt.Println("kept " + file)
		return 1
	}
	if err := os.Remove(file); err != nil {
		fmt.Println(err)
		return 4
	}
	fmt.Println("deleted " + file)
	return 0
}

// menu asks for a choice with survey's arrow menu and writes it to file.
func menu(file string) int {
	var choice string
	q := &survey.Select{Message: "Pick a deployment target", Options: []string{"staging", "production", "cancel"}}
	if err := survey.AskOne(q, &choice); err != nil {
		fmt.Printf("no choice: %v\n", err)
		return 1
	}
	if err := os.WriteFile(file, []byte(choice), 0o600); err != nil {
		fmt.Println(err)
		return 4
	}
	fmt.Println("deploying to " + choice)
	return 0
}

// dialogTemplate draws survey's select as the AI TUIs draw a permission
// dialog: no "? " question row, numbered options, a ❯ pointer.
const dialogTemplate = `
{{- if .ShowAnswer}}{{"\n"}}{{else}}
{{- .Message}}{{"\n"}}
{{- range $ix, $option := .PageEntries}}
  {{- if eq $ix $.SelectedIndex }}❯ {{else}}  {{end}}{{$option.Value}}{{"\n"}}
{{- end}}{{end}}`

// dialog asks whether to run a command, as a TUI's dialog, and writes the
// choice to file.
func dialog(file string) int {
	survey.SelectQuestionTemplate = dialogTemplate
	var choice string
	q := &survey.Select{
		Message: "Bash command\n\n  del build.log\n  Remove the build log\n\nDo you want to proceed?",
		Options: []string{"1. Yes", "2. No, and tell me what to do differently"},
	}
	if err := survey.AskOne(q, &choice); err != nil {
		fmt.Printf("no choice: %v\n", err)
		return 1
	}
	if err := os.WriteFile(file, []byte(choice), 0o600); err != nil {
		fmt.Println(err)
		return 4
	}
	fmt.Println("chose " + choice)
	return 0
}

// tree starts a grandchild on no console (only a job object can end it),
// writes both pids to pidfile and waits for good, deaf to Ctrl-C.
func tree(pidfile string) int {
	signal.Notify(make(chan os.Signal, 1), os.Interrupt)
	self, err := os.Executable()
	if err != nil {
		fmt.Println(err)
		return 4
	}
	var c *exec.Cmd
	for try := 1; ; try++ {
		c = exec.Command(self, "sleep")
		c.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS}
		err = c.Start()
		if err == nil {
			break
		}
		if try == 3 { // Wine once failed a start with "Internal error"
			fmt.Println(err)
			return 4
		}
	}
	pids := fmt.Sprintf("%d %d", os.Getpid(), c.Process.Pid)
	if err := os.WriteFile(pidfile+".tmp", []byte(pids), 0o600); err != nil || os.Rename(pidfile+".tmp", pidfile) != nil {
		fmt.Println("cannot write", pidfile)
		return 4
	}
	fmt.Printf("working (pids %s)\n", pids)
	sleepForever()
	return 0
}

// sleepForever blocks for good (a bare select{} would end the program:
// the runtime reports a deadlock when no goroutine can run).
func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

// gone waits until every process in pids has ended.
func gone(pids []string) int {
	deadline := time.Now().Add(20 * time.Second)
	code := 0
	for _, s := range pids {
		pid, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			fmt.Printf("bad pid %q\n", s)
			return 2
		}
		h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
		if err != nil {
			continue // no such process: it has ended
		}
		wait := max(time.Until(deadline), 0)
		ev, err := windows.WaitForSingleObject(h, uint32(wait/time.Millisecond))
		_ = windows.CloseHandle(h)
		if err != nil || ev != windows.WAIT_OBJECT_0 {
			fmt.Printf("process %d still runs\n", pid)
			code = 1
		}
	}
	return code
}

// ps lists the running processes.
func ps() int {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer windows.CloseHandle(snap)
	e := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		fmt.Printf("%d %s\n", e.ProcessID, windows.UTF16ToString(e.ExeFile[:]))
	}
	return 0
}

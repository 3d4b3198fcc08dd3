package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// execute runs the approved command the way the `ghcs` wrapper did: through
// the shell (shellCommand), in the current directory, on the same terminal, and makes its
// exit status ours. With --shell-out it writes the command to that file
// instead, as gh-copilot did for the wrapper to run.
func (s *session) execute(cmd string) error {
	if s.o.ShellOut != "" {
		if err := os.WriteFile(s.o.ShellOut, []byte(cmd), 0o600); err != nil {
			return &exitError{code: 1, msg: fmt.Sprintf("failed to write the command to %s: %v", s.o.ShellOut, err)}
		}
		return nil
	}

	c := shellCommand(cmd)
	c.Stdin, c.Stdout, c.Stderr = s.o.IO.In, s.o.IO.Out, s.o.IO.ErrOut

	// Ctrl-C at the terminal goes to the whole foreground group: let it stop
	// the command, not us, so we can still report the command's status.
	// Notify (unlike Ignore) is reset for the child by exec.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGQUIT)
	defer signal.Stop(sigs)

	err := c.Run()
	if err == nil {
		return nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return &exitError{code: 128 + int(ws.Signal())}
		}
		return &exitError{code: ee.ExitCode()}
	}
	return &exitError{code: 1, msg: fmt.Sprintf("failed to execute command: %v; is %s on PATH?", err, c.Path)}
}

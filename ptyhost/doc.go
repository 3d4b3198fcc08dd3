// Package ptyhost owns the programs yume-cli starts and their terminals: a
// child in a pseudo-terminal (creack/pty on Unix, ConPTY on Windows) with
// its size, its keys (KeyWriter) and its output (Reader, a ring the driver
// takes from in batches); how it is waiting (InputWaitOf: blocked reading
// its terminal, polling it, or running); its exit status in words; and its
// supervision, for the PTY path and the structured path's piped processes
// alike: a process group (a job object on Windows) that ends with yume-cli
// even when yume-cli is killed, orphans adopted and ended, a watchdog on
// the GUI's side of stdout, and self-updates at start seen and reported.
//
// It knows nothing of screens, rules or events: the driver reads what it
// hands over.
package ptyhost

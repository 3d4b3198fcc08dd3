//go:build windows

package ptyhost

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf16"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The pseudo-console (ConPTY) is two pipes and a conhost that sits between
// them: conhost reads VT keys from the input pipe and gives the program
// console input events, and draws the program's console into VT on the
// output pipe. yume-cli holds the other ends of both pipes, opened for
// overlapped I/O so that they are in the Go poller: a blocked Read returns
// when Close closes the pipe, as a PTY master's does.

// consolePipes are the two pipes of one pseudo-console: ours (in, out:
// overlapped, in the poller) and conhost's (conIn, conOut: closed once
// CreatePseudoConsole has duplicated them).
type consolePipes struct {
	in     *os.File       // we write keys here
	out    *os.File       // we read the console's VT output here
	conIn  windows.Handle // conhost reads keys from it
	conOut windows.Handle // conhost writes VT output to it
}

// pipeBuf is each pipe's buffer size hint.
const pipeBuf = 64 << 10

// newConsolePipes makes the two pipes: named pipes, since an anonymous
// pipe cannot be overlapped, each with a random name and one instance, and
// open to local clients only.
func newConsolePipes() (*consolePipes, error) {
	in, conIn, err := pipePair(windows.PIPE_ACCESS_OUTBOUND, windows.GENERIC_READ)
	if err != nil {
		return nil, err
	}
	out, conOut, err := pipePair(windows.PIPE_ACCESS_INBOUND, windows.GENERIC_WRITE)
	if err != nil {
		_ = in.Close()                 // Best effort.
		_ = windows.CloseHandle(conIn) // Best effort.
		return nil, err
	}
	return &consolePipes{in: in, out: out, conIn: conIn, conOut: conOut}, nil
}

// pipePair creates a named pipe whose server end (ours, overlapped, as an
// *os.File) has access ours, and opens its client end with access theirs.
func pipePair(ours, theirs uint32) (*os.File, windows.Handle, error) {
	var id [16]byte
	_, _ = rand.Read(id[:]) // crypto/rand.Read never fails
	name := `\\.\pipe\yume-cli-` + hex.EncodeToString(id[:])
	name16, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, 0, err
	}
	server, err := windows.CreateNamedPipe(name16,
		ours|windows.FILE_FLAG_OVERLAPPED|windows.FILE_FLAG_FIRST_PIPE_INSTANCE,
		windows.PIPE_TYPE_BYTE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
		1, pipeBuf, pipeBuf, 0, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("ptyhost: create the pseudo-console's pipe: %w", err)
	}
	client, err := windows.CreateFile(name16, theirs, 0, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		_ = windows.CloseHandle(server) // Best effort.
		return nil, 0, fmt.Errorf("ptyhost: open the pseudo-console's pipe: %w", err)
	}
	// NewFile sees the overlapped handle and adds it to the poller.
	return os.NewFile(uintptr(server), name), client, nil
}

// closeTheirs closes conhost's ends of the pipes (it has its own copies).
func (c *consolePipes) closeTheirs() {
	for _, h := range []*windows.Handle{&c.conIn, &c.conOut} {
		if *h != 0 {
			_ = windows.CloseHandle(*h) // Best effort.
			*h = 0
		}
	}
}

// unread is how many bytes of output wait in the pipe (0 if unknown).
func (c *consolePipes) unread() uint32 {
	rc, err := c.out.SyscallConn()
	if err != nil {
		return 0
	}
	var avail uint32
	_ = rc.Control(func(fd uintptr) {
		// PeekNamedPipe(pipe, NULL, 0, NULL, &avail, NULL); on failure avail stays 0.
		_, _, _ = procPeekNamedPipe.Call(fd, 0, 0, 0, uintptr(unsafe.Pointer(&avail)), 0)
	})
	return avail
}

// procPeekNamedPipe is kernel32's PeekNamedPipe, which x/sys/windows lacks.
var procPeekNamedPipe = windows.NewLazySystemDLL("kernel32.dll").NewProc("PeekNamedPipe")

// close closes all four ends.
func (c *consolePipes) close() {
	c.closeTheirs()
	_ = c.in.Close()  // Best effort.
	_ = c.out.Close() // Best effort.
}

// console is a pseudo-console, closed once (closing it ends its conhost).
type console struct {
	h    windows.Handle
	once sync.Once
}

func newConsole(pipes *consolePipes, cols, rows int) (*console, error) {
	var h windows.Handle
	size := windows.Coord{X: int16(min(cols, 0x7FFF)), Y: int16(min(rows, 0x7FFF))}
	if err := windows.CreatePseudoConsole(size, pipes.conIn, pipes.conOut, 0, &h); err != nil {
		return nil, fmt.Errorf("ptyhost: create a pseudo-console (ConPTY needs Windows 10 1809 or later): %w", err)
	}
	return &console{h: h}, nil
}

// close closes the pseudo-console. On Windows 10 it waits for conhost to
// exit, which writes what is left of its output first: someone must be
// reading the output pipe, or it must be closed.
func (c *console) close() { c.once.Do(func() { windows.ClosePseudoConsole(c.h) }) }

// resize changes the console's size; the program gets a resize event.
func (c *console) resize(cols, rows int) error {
	size := windows.Coord{X: int16(min(cols, 0x7FFF)), Y: int16(min(rows, 0x7FFF))}
	if err := windows.ResizePseudoConsole(c.h, size); err != nil {
		return fmt.Errorf("ptyhost: resize the pseudo-console to %dx%d: %w", cols, rows, err)
	}
	return nil
}

// attrList is a process attribute list that attaches a new process to the
// console and, if inherit holds any, lists the only handles it inherits.
func (c *console) attrList(inherit []windows.Handle) (*windows.ProcThreadAttributeListContainer, error) {
	n := uint32(1)
	if len(inherit) > 0 {
		n++
	}
	al, err := windows.NewProcThreadAttributeList(n)
	if err != nil {
		return nil, fmt.Errorf("ptyhost: process attribute list: %w", err)
	}
	// The attribute's value is the HPCON itself, not a pointer to it: its
	// bits are reinterpreted, not converted, so no uintptr becomes a pointer.
	value := *(*unsafe.Pointer)(unsafe.Pointer(&c.h))
	if err := al.Update(windows.PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE, value, unsafe.Sizeof(c.h)); err != nil {
		al.Delete()
		return nil, fmt.Errorf("ptyhost: attach the pseudo-console to the process: %w", err)
	}
	if len(inherit) > 0 {
		if err := al.Update(windows.PROC_THREAD_ATTRIBUTE_HANDLE_LIST, unsafe.Pointer(&inherit[0]), uintptr(len(inherit))*unsafe.Sizeof(inherit[0])); err != nil {
			al.Delete()
			return nil, fmt.Errorf("ptyhost: list the handles the process inherits: %w", err)
		}
	}
	return al, nil
}

// commandLine is the program CreateProcess runs (its path) and the command
// line it gets: argv as the C runtime reads it back, or, for a batch file,
// cmd.exe running it (batchCommandLine).
func commandLine(path string, argv []string) (app, line string, err error) {
	if !isBatch(path) {
		return path, windows.ComposeCommandLine(argv), nil
	}
	line, err = batchCommandLine(path, argv[1:])
	if err != nil {
		return "", "", err
	}
	return comspec(), line, nil
}

// comspec is cmd.exe's path: %ComSpec%, else the one in system32.
func comspec() string {
	if c := os.Getenv("ComSpec"); c != "" && filepath.IsAbs(c) {
		return c
	}
	dir, err := windows.GetSystemDirectory()
	if err != nil {
		dir = `C:\Windows\System32`
	}
	return filepath.Join(dir, "cmd.exe")
}

// envBlock is env as CreateProcess takes it: each NAME=value in UTF-16,
// NUL-terminated, then one more NUL. Names are case-insensitive on
// Windows: a later one replaces an earlier one, as os/exec does. SYSTEMROOT
// is added when missing: without it some system DLLs fail to load.
func envBlock(env []string) (*uint16, error) {
	seen := map[string]int{}
	var kept []string
	for _, kv := range env {
		if strings.IndexByte(kv, 0) >= 0 {
			return nil, fmt.Errorf("ptyhost: environment variable %q holds a NUL byte", kv)
		}
		name := kv
		if i := strings.IndexByte(kv[min(1, len(kv)):], '='); i >= 0 {
			name = kv[:i+min(1, len(kv))] // "=C:=C:\x" names "=C:"
		}
		key := strings.ToUpper(name)
		if i, ok := seen[key]; ok {
			kept[i] = kv
			continue
		}
		seen[key] = len(kept)
		kept = append(kept, kv)
	}
	if _, ok := seen["SYSTEMROOT"]; !ok {
		if root := os.Getenv("SYSTEMROOT"); root != "" {
			kept = append(kept, "SYSTEMROOT="+root)
		}
	}
	var b []uint16
	for _, kv := range kept {
		b = append(b, utf16.Encode([]rune(kv))...)
		b = append(b, 0)
	}
	if len(b) == 0 {
		b = append(b, 0) // an empty block is two NULs
	}
	b = append(b, 0)
	return &b[0], nil
}

// underWine reports whether this process runs under Wine (ntdll exports
// wine_get_version there and nowhere else).
var underWine = sync.OnceValue(func() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
})

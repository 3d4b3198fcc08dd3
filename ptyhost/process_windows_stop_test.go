//go:build windows

package ptyhost_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yume-cli/yume-cli/ptyhost"
	"golang.org/x/sys/windows"
)

// grandchildOf reads the pid a tree or orphan child printed and opens it,
// so that its end can be waited for.
func grandchildOf(t *testing.T, p *ptyhost.Process, acc *bytes.Buffer) windows.Handle {
	t.Helper()
	readUntil(t, p, acc, "grandchild ")
	readUntil(t, p, acc, "\n")
	var pid uint32
	text := screenText(acc.Bytes())
	if _, err := fmt.Sscanf(text[strings.Index(text, "grandchild "):], "grandchild %d", &pid); err != nil {
		t.Fatalf("no grandchild pid in %q: %v", text, err)
	}
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		t.Fatalf("open the grandchild %d: %v", pid, err)
	}
	t.Cleanup(func() { _ = windows.CloseHandle(h) })
	return h
}

// waitGone fails unless the process h ends within testTimeout.
func waitGone(t *testing.T, h windows.Handle, what string) {
	t.Helper()
	ev, err := windows.WaitForSingleObject(h, uint32(testTimeout/time.Millisecond))
	if err != nil || ev != windows.WAIT_OBJECT_0 {
		t.Errorf("%s still runs %v after it should have ended (wait: %d, %v)", what, testTimeout, ev, err)
	}
}

func TestWindowsStopEndsTheTree(t *testing.T) {
	const grace = 300 * time.Millisecond
	p := start(t, helper("tree"))
	watchdog(t, p)
	var acc bytes.Buffer
	gc := grandchildOf(t, p, &acc)
	began := time.Now()
	if err := p.Stop(grace); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	took := time.Since(began)
	got, _ := p.Wait()
	waitGone(t, gc, "the grandchild")
	readAll(t, p) // the console closes once the job is empty
	if took < grace {
		t.Errorf("Stop returned after %v, before the grace period %v (the program reads Ctrl-C as a key and ignores it)", took, grace)
	}
	if got != (ptyhost.ExitStatus{Code: -1, Signal: "SIGKILL"}) {
		t.Errorf("Wait() = %+v; want the stop reported as SIGKILL", got)
	}
}

// waitReadyFile waits for a child that draws nothing to say it is ready
// in the file ready. If it ends first, or does not start in testTimeout,
// the test fails with how it ended and what its console showed (under
// Wine the console shim reports there why it could not run the program).
// The console is read to its end meanwhile: the returned func waits for
// that end, as readAll does, and fails on an error other than io.EOF.
func waitReadyFile(t *testing.T, p *ptyhost.Process, ready string) (readToEnd func()) {
	t.Helper()
	var shown bytes.Buffer
	var readErr error
	read := make(chan struct{})
	go func() {
		defer close(read)
		for {
			chunk, _, err := p.ReadChunk()
			shown.Write(chunk)
			if err != nil {
				readErr = err
				return
			}
		}
	}()
	readToEnd = func() {
		t.Helper()
		if <-read; !errors.Is(readErr, io.EOF) {
			t.Fatalf("ReadChunk: %v (after %q)", readErr, shown.Bytes())
		}
	}
	deadline := time.Now().Add(testTimeout)
	for {
		if _, err := os.Stat(ready); err == nil {
			return readToEnd
		}
		select {
		case <-p.Done():
			got, err := p.Wait()
			<-read
			t.Fatalf("the child ended (%+v, %v) before it was ready; its console showed %q", got, err, screenText(shown.Bytes()))
		default:
		}
		if time.Now().After(deadline) {
			_ = p.Close()
			<-read
			t.Fatalf("the child did not start in %v (pid %d); its console showed %q", testTimeout, p.Pid(), screenText(shown.Bytes()))
		}
		time.Sleep(10 * time.Millisecond) // Polling a condition under a deadline.
	}
}

func TestWindowsStopEscalates(t *testing.T) {
	const grace = 300 * time.Millisecond
	ready := filepath.Join(tempDir(t), "ready")
	p := start(t, helper("deaf", ready))
	watchdog(t, p)
	readToEnd := waitReadyFile(t, p, ready)
	began := time.Now()
	if err := p.Stop(grace); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if took := time.Since(began); took < grace {
		t.Errorf("Stop returned after %v, before the grace period %v (the program ignores Ctrl-C)", took, grace)
	}
	if got, _ := p.Wait(); got != (ptyhost.ExitStatus{Code: -1, Signal: "SIGKILL"}) {
		t.Errorf("Wait() = %+v; want the job's termination, reported as SIGKILL", got)
	}
	readToEnd()
}

// wineCtrlC is why the tests of a program's own answer to Ctrl-C skip
// under Wine.
const wineCtrlC = "under Wine, Ctrl-C typed into the console (a key event, by the console shim) calls no Ctrl-C handler of the program the shim started: a program's own answer to Ctrl-C needs a real Windows run"

func TestWindowsStopTypesCtrlC(t *testing.T) {
	if underWine() {
		t.Skip(wineCtrlC)
	}
	p := start(t, helper("ctrlc-exit"))
	watchdog(t, p)
	var acc bytes.Buffer
	readUntil(t, p, &acc, "ready")
	if err := p.Stop(testTimeout); err != nil { // returns once the Ctrl-C ended it
		t.Fatalf("Stop: %v", err)
	}
	if got, _ := p.Wait(); got != (ptyhost.ExitStatus{}) {
		t.Errorf("Wait() = %+v; want exit 0, the program's own answer to Ctrl-C", got)
	}
	if out := screenText(append(acc.Bytes(), readAll(t, p)...)); !strings.Contains(out, "bye") {
		t.Errorf("output %q lacks the program's goodbye", out)
	}
}

func TestWindowsCtrlCDefault(t *testing.T) {
	if underWine() {
		t.Skip(wineCtrlC)
	}
	p := start(t, helper("ctrlc-default"))
	watchdog(t, p)
	var acc bytes.Buffer
	readUntil(t, p, &acc, "ready")
	if _, err := p.Write([]byte{0x03}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(testTimeout):
		t.Fatalf("Ctrl-C did not end the program in %v", testTimeout)
	}
	got, _ := p.Wait()
	if want := (ptyhost.ExitStatus{Code: -1, Signal: "SIGINT"}); got != want {
		t.Errorf("Wait() = %+v; want %+v", got, want)
	}
}

func TestWindowsLeftoverHoldsTheConsole(t *testing.T) {
	p := start(t, helper("orphan"))
	watchdog(t, p)
	var acc bytes.Buffer
	gc := grandchildOf(t, p, &acc)
	<-p.Done()
	if got, _ := p.Wait(); got != (ptyhost.ExitStatus{}) {
		t.Errorf("Wait() = %+v; want exit 0", got)
	}
	// Output does not end while the grandchild lives: Close ends it.
	read := make(chan error, 1)
	go func() {
		for {
			_, _, err := p.ReadChunk()
			if err != nil {
				read <- err
				return
			}
		}
	}()
	select {
	case err := <-read:
		t.Fatalf("output ended (%v) while the grandchild still runs", err)
	case <-time.After(ptyhost.HeldGrace):
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := <-read; !errors.Is(err, io.EOF) {
		t.Errorf("read after Close: %v; want io.EOF", err)
	}
	waitGone(t, gc, "the grandchild")
}

package main

import (
	"os/exec"
	"runtime"
	"syscall"
	"testing"

	"github.com/yume-cli/yume-cli/internal/testchild"
)

// The machine under load: CPU burners, and processes whose memory map a
// /proc reader waits for. Registered before any init plays a mode.
var _ = func() bool {
	childModes["burn"] = burn
	childModes["remap"] = remap
	return true
}()

// startLoad starts, until the test ends, two CPU burners per core and two
// four processes that keep remapping memory.
func startLoad(t *testing.T) {
	t.Helper()
	modes := []string{"remap", "remap", "remap", "remap"}
	for range 2 * runtime.NumCPU() {
		modes = append(modes, "burn")
	}
	for _, mode := range modes {
		argv, env := testchild.Command(mode)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
	}
}

// burn keeps a core busy until killed.
func burn([]string) int {
	for {
	}
}

// remap keeps its memory map's lock busy until killed: three threads map
// and unmap 32 MiB, every page touched (MAP_POPULATE). A read of its
// /proc environ waits for that lock: tens to hundreds of milliseconds.
func remap([]string) int {
	for range 3 {
		go func() {
			for {
				b, err := syscall.Mmap(-1, 0, 32<<20, syscall.PROT_READ|syscall.PROT_WRITE,
					syscall.MAP_ANON|syscall.MAP_PRIVATE|syscall.MAP_POPULATE)
				if err == nil {
					_ = syscall.Munmap(b)
				}
			}
		}()
	}
	sleepForever()
	return 0
}

package structured

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/yume-cli/yume-cli/ptyhost"
)

// proc is a provider process started with pipes in its own process group,
// so an interrupt reaches its children and nothing is left running.
type proc struct {
	name   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser // nil when the provider reads no stdin
	stdout io.ReadCloser

	stopOnce sync.Once
	endOnce  sync.Once
	stopped  chan struct{}
}

// killGrace is how long a provider may take to exit after SIGINT before its
// whole process group is killed.
const killGrace = 3 * time.Second

// startProc starts path with args in dir. withStdin makes a stdin pipe;
// otherwise stdin is /dev/null, so a provider never waits on our stdin.
// The provider's stderr goes to stderr (never stdout).
func startProc(name, path string, args []string, dir string, env []string, withStdin bool, stderr io.Writer) (*proc, error) {
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if stderr == nil {
		stderr = io.Discard
	}
	cmd.Stderr = stderr
	// A grandchild that keeps stderr open must not hang Wait forever.
	cmd.WaitDelay = killGrace
	setGroup(cmd)
	p := &proc{name: name, cmd: cmd, stopped: make(chan struct{})}
	var err error
	if withStdin {
		if p.stdin, err = cmd.StdinPipe(); err != nil {
			return nil, err
		}
	}
	if p.stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s (%s): %w", name, path, err)
	}
	ptyhost.WatchGroup(cmd.Process.Pid) // the watchdog ends the group if yume-cli is killed
	return p, nil
}

// interrupt asks the provider to stop (SIGINT to its group) and kills the
// group if it is still running after killGrace. Safe to call repeatedly.
func (p *proc) interrupt() {
	p.stopOnce.Do(func() {
		signalGroup(p.cmd, interruptSignal)
		go func() {
			select {
			case <-time.After(killGrace):
				signalGroup(p.cmd, killSignal)
			case <-p.stopped:
			}
		}()
	})
}

// end stops the provider's whole process group at once: SIGTERM, then
// SIGKILL after grace. Safe to call repeatedly.
func (p *proc) end(grace time.Duration) {
	p.endOnce.Do(func() {
		signalGroup(p.cmd, endSignal)
		go func() {
			timer := time.NewTimer(grace)
			defer timer.Stop()
			select {
			case <-timer.C:
				signalGroup(p.cmd, killSignal)
			case <-p.stopped:
			}
		}()
	})
}

// wait waits for the provider to exit, then kills whatever is left of its
// process group (daemons it spawned) and returns how the provider exited.
func (p *proc) wait() error {
	err := p.cmd.Wait()
	close(p.stopped)
	signalGroup(p.cmd, killSignal)
	ptyhost.ForgetGroup(p.cmd.Process.Pid) // ended: its id may name another group from now on
	return err
}

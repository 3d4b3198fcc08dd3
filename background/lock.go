package background

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// LockName is the lock file's name in a working tree's git directory
// (.git, or .git/worktrees/NAME for a linked worktree).
const LockName = "yume-cli-agent.lock"

// Holder is the agent a working tree belongs to, as its lock file says.
type Holder struct {
	PID     int    `json:"pid"`
	Branch  string `json:"branch"`
	Session string `json:"session,omitempty"`
	Started int64  `json:"started"` // Unix milliseconds
}

// HeldError says that another agent holds the working tree.
type HeldError struct {
	Dir    string
	Holder Holder
}

func (e *HeldError) Error() string {
	h := e.Holder
	who := fmt.Sprintf("pid %d", h.PID)
	if h.PID == 0 {
		who = "a process that has not said which yet"
	}
	if h.Branch != "" {
		who += ", on branch " + h.Branch
	}
	if h.Session != "" {
		who += ", session " + h.Session
	}
	if h.Started > 0 {
		who += ", since " + time.UnixMilli(h.Started).UTC().Format(time.RFC3339)
	}
	return fmt.Sprintf("the working tree %s belongs to a running yume-cli agent (%s): two agents in one working tree would switch each other's files; give each agent its own working tree (git worktree add), or wait until it ends", e.Dir, who)
}

// Lock is a working tree held by this process for its run.
type Lock struct {
	f *os.File
}

// LockTree takes the working tree dir for this process, writing h (its pid,
// branch, session) into the lock file in the tree's git directory. The
// lock is the system's (flock, LockFileEx): it goes when the process ends,
// however it ends, so a file naming a dead process never stands in the way.
// Another live agent's lock is a *HeldError naming it. A dir outside any
// git working tree has nothing to lock: nil, nil.
func LockTree(ctx context.Context, dir string, h Holder) (*Lock, error) {
	gitDir, err := git(ctx, dir, "rev-parse", "--absolute-git-dir")
	if err != nil || gitDir == "" {
		return nil, nil
	}
	path := filepath.Join(gitDir, LockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot open the agents' lock file %s: %w", path, err)
	}
	ok, err := tryLock(f)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("cannot lock %s: %w", path, err)
	}
	if !ok {
		held := &HeldError{Dir: dir}
		data, _ := io.ReadAll(io.LimitReader(f, 4096))
		_ = json.Unmarshal(data, &held.Holder) // Best effort: an empty file names nobody.
		_ = f.Close()
		return nil, held
	}
	data, _ := json.Marshal(h)
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt(append(data, '\n'), 0)
	}
	if err != nil {
		unlock(f)
		_ = f.Close()
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return &Lock{f: f}, nil
}

// Release empties the lock file and lets the tree go. The file stays:
// removed, a process that opened it a moment before would lock a file
// nobody else sees any more.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	_ = l.f.Truncate(0) // Best effort: an unlocked file's words are ignored anyway.
	unlock(l.f)
	_ = l.f.Close()
	l.f = nil
}

// errUnsupported: this system has no file lock yume-cli uses.
var errUnsupported = errors.New("no file locks on this system")

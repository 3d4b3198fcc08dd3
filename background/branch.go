package background

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Branch is what switching a working tree to a branch did.
type Branch struct {
	Name    string
	Success bool
	// Created: the branch did not exist and was made from HEAD.
	Created bool
	// Already: the working tree was on it.
	Already bool
	// From is the branch (or commit) the tree was on before.
	From string
	// Err says why the tree was not switched: not a git working tree, a
	// bad name, uncommitted changes, git's own refusal.
	Err string
}

// SwitchBranch puts the working tree dir on branch name, creating it from
// HEAD when it does not exist. It runs only git commands that refuse to
// lose anything: it never resets, stashes, cleans, forces, or checks out
// files. A tree with uncommitted changes to tracked files is left as it
// is (Err says so); so is one git will not switch (a branch checked out
// in another worktree, an untracked file the branch would overwrite).
func SwitchBranch(ctx context.Context, dir, name string) Branch {
	b := Branch{Name: name}
	fail := func(format string, a ...any) Branch {
		b.Err = fmt.Sprintf(format, a...)
		return b
	}
	if err := checkName(ctx, dir, name); err != nil {
		return fail("%v", err)
	}
	if out, err := git(ctx, dir, "rev-parse", "--is-inside-work-tree"); err != nil || out != "true" {
		return fail("%s is not in a git working tree: nothing to switch", dir)
	}
	current, err := git(ctx, dir, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil { // a detached HEAD
		current, _ = git(ctx, dir, "rev-parse", "--short", "HEAD")
	}
	b.From = current
	if current == name {
		b.Success, b.Already = true, true
		return b
	}
	status, err := git(ctx, dir, "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return fail("git status: %v", err)
	}
	if status != "" {
		n := strings.Count(status, "\n") + 1
		return fail("the working tree has uncommitted changes to %d tracked file(s); it stays on %s: commit them, or let the agent work in a clean tree", n, orUnborn(current))
	}
	if _, err := git(ctx, dir, "show-ref", "--verify", "--quiet", "refs/heads/"+name); err == nil {
		_, err = git(ctx, dir, "switch", "--no-guess", name)
		if err != nil {
			return fail("git switch %s: %v", name, err)
		}
	} else {
		if _, err = git(ctx, dir, "switch", "--create", name); err != nil {
			return fail("git switch --create %s: %v", name, err)
		}
		b.Created = true
	}
	if now, err := git(ctx, dir, "symbolic-ref", "--quiet", "--short", "HEAD"); err != nil || now != name {
		return fail("git switched the tree to %q, not %s", now, name)
	}
	b.Success = true
	return b
}

// checkName refuses what git would read as something other than a new
// branch's name: an option, HEAD, @{-1} and the like.
func checkName(ctx context.Context, dir, name string) error {
	if name == "" || strings.HasPrefix(name, "-") || name == "HEAD" || strings.Contains(name, "@{") {
		return fmt.Errorf("%q is not a branch name git takes", name)
	}
	out, err := git(ctx, dir, "check-ref-format", "--branch", name)
	if err != nil || out != name {
		return fmt.Errorf("%q is not a branch name git takes", name)
	}
	return nil
}

func orUnborn(branch string) string {
	if branch == "" {
		return "a branch with no commit yet"
	}
	return branch
}

// git runs git in dir and returns its output, trimmed; an error carries
// what git said.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	// No prompt for credentials or an editor, no optional locks taken by
	// a status, messages in one language.
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := strings.TrimSpace(stdout.String())
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		var ee *exec.ExitError
		if msg == "" || !errors.As(err, &ee) {
			msg = strings.TrimSpace(msg + " " + err.Error())
		}
		return out, errors.New(strings.ReplaceAll(msg, "\n", "; "))
	}
	return out, nil
}

// BranchLine is the branch_switch line yume-cli writes on stderr, as
// Yume's own shim did: {"type":"branch_switch","branch","success",
// "timestamp"}, with "error" when it failed.
func BranchLine(b Branch, at time.Time) []byte {
	line, _ := marshal(struct {
		Type      string `json:"type"`
		Branch    string `json:"branch"`
		Success   bool   `json:"success"`
		Created   bool   `json:"created,omitempty"`
		Error     string `json:"error,omitempty"`
		Timestamp int64  `json:"timestamp"`
	}{"branch_switch", b.Name, b.Success, b.Created, b.Err, at.UnixMilli()})
	return line
}

// Notice is what the stream says about a switch: "" for one that worked.
func (b Branch) Notice() string {
	if b.Success {
		return ""
	}
	return "yume-cli: --git-branch " + b.Name + ": not switched (" + b.Err + "); the agent works where the tree is"
}

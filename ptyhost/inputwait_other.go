//go:build !linux || !(amd64 || arm64)

package ptyhost

// InputWait is Linux-only (amd64, arm64): elsewhere the rules and the
// settled screen alone tell a question from output.
func (p *Process) InputWait() InputState { return InputUnknown }

// CPUTime is Linux-only (amd64, arm64), as InputWait is.
func (p *Process) CPUTime() (ticks uint64, ok bool) { return 0, false }

// Waiters is Linux-only (amd64, arm64), as InputWait is.
func (p *Process) Waiters() Waiters { return Waiters{} }

// WokeSince is Linux-only (amd64, arm64), as InputWait is.
func (p *Process) WokeSince(Waiters) (woke, known bool) { return false, false }

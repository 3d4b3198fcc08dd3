package driver

import (
	"github.com/yume-cli/yume-cli/permission"
	"github.com/yume-cli/yume-cli/ptyhost"
)

// The GUI going away (stdout's reader closed it, or yume-cli's parent
// exited: ptyhost.GUIWatch) ends the session within a second: nobody sees
// what the program does, and nobody can answer it. Nothing is approved
// from then on, and the program is ended at once: its quit keys, where
// they cannot answer a question on screen, then its process group.

// leave ends the session because the GUI went away (why).
func (d *driver) leave(why string) {
	if d.st == stateEnded {
		return
	}
	d.policy.CloseChannel()
	d.tr.state(why + ": ending the session")
	d.abort(why, true)
}

// goneBeforeApproval reports the GUI gone just before p was to be
// approved: p is denied without a key typed, and the session ends.
func (d *driver) goneBeforeApproval(p *pending) bool {
	if !d.out.GUIGone() {
		return false
	}
	if d.st == stateAwaiting {
		d.toIdle("the GUI went away before " + p.id + " was approved")
	}
	d.settled[p.id] = "denied"
	d.outcome.Denials++
	d.emitErr(d.out.Deny(p.id, p.tool, p.input, permission.GUIGone))
	d.leave("the GUI went away before " + p.id + " was approved")
	return true
}

// stopProgram ends the program and its process group: with the usual
// grace while the GUI is there (a signal, an interrupt), at once when it
// is gone.
func (d *driver) stopProgram() {
	if !d.out.GUIGone() {
		_ = d.cfg.Term.Close() // Best effort: stops the whole process group.
		return
	}
	if cannotAnswer(d.quitKeys()) {
		d.send(quitRule, "quit", d.cfg.Profile.Quit)
	}
	_ = ptyhost.EndSoon(d.cfg.Term, ptyhost.GoneQuitWait, ptyhost.GoneGrace) // Best effort, as Close.
}

// cannotAnswer reports keys that cannot choose an option of a question
// on screen: no Enter and no printable character (Ctrl-C, Esc). Only such
// quit keys are typed once nobody can answer.
func cannotAnswer(keys []byte) bool {
	for _, b := range keys {
		if b >= 0x20 || b == '\r' || b == '\n' {
			return false
		}
	}
	return len(keys) > 0
}

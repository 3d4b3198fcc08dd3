package structured

import (
	"encoding/json"
	"slices"
	"time"
)

// A call whose output ACP leaves out (Gemini's shell calls) is read from
// the agent's transcript, which the agent writes once it has sent the
// call's end. Its tool_result waits for the record, never a fixed time:
// it is written as soon as a look finds it (awaitOutputs, in the
// background), and at the latest before anything the agent says next
// (Gemini records a call before it asks its model again), or as the
// turn ends.

// transcriptWait bounds how long the agent's next word waits for a
// record still missing (an agent that records later than it speaks);
// lookEvery is how often the background look polls the transcript, which
// gives no event to wait on.
var transcriptWait = 2 * time.Second // a variable: a test shortens it

const lookEvery = 25 * time.Millisecond

// awaited is a finished call whose output is still to be read from the
// transcript.
type awaited struct {
	id, status string
	raw        json.RawMessage
	failed     bool
	ended      time.Time
}

// await holds the tool_result of a call until the transcript has its
// output, and starts the background look.
func (a *acpTranslator) await(id, status string, raw json.RawMessage, failed bool) {
	a.awaiting = append(a.awaiting, awaited{id: id, status: status, raw: raw, failed: failed, ended: time.Now()})
	if a.lookForOutputs != nil {
		a.lookForOutputs()
	}
}

// isAwaited says whether the call's tool_result waits on the transcript
// (a late frame of it is not news).
func (a *acpTranslator) isAwaited(id string) bool {
	return slices.ContainsFunc(a.awaiting, func(w awaited) bool { return w.id == id })
}

// writeAwaited writes the tool_results whose outputs the transcript has,
// in the order the calls ended. With settle, the agent has moved on: a
// record still missing is waited for up to transcriptWait after its
// call's end, then the call is reported as printing nothing readable.
// It returns how many still wait, and the first failure to write.
func (a *acpTranslator) writeAwaited(settle bool) (int, error) {
	if err := a.awaitErr; err != nil {
		a.awaitErr = nil
		return len(a.awaiting), err
	}
	for len(a.awaiting) > 0 {
		w := a.awaiting[0]
		out, ok := a.fromTranscript(w.id)
		for settle && !ok && time.Since(w.ended) < transcriptWait {
			time.Sleep(lookEvery) // Polling: the transcript gives no event to wait on.
			out, ok = a.fromTranscript(w.id)
		}
		if !ok && !settle {
			break
		}
		a.awaiting = a.awaiting[1:]
		if err := a.writeResult(w.id, w.status, out, ok, w.raw, w.failed); err != nil {
			return len(a.awaiting), err
		}
	}
	return len(a.awaiting), nil
}

// lookForOutputs starts the background look for the outputs the
// translator awaits, if none runs: every lookEvery it writes what the
// transcript has, until nothing waits, the transcript is closed or
// transcriptWait has passed (the agent's next word settles the rest). It
// is called with s.mu held.
func (s *acpSession) lookForOutputs() {
	if s.pollStop != nil {
		return
	}
	stop := make(chan struct{})
	s.pollStop = stop
	go func() {
		tick := time.NewTicker(lookEvery)
		defer tick.Stop()
		for begun := time.Now(); ; {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			s.mu.Lock()
			left, err := s.tr.writeAwaited(false)
			if err != nil {
				s.tr.awaitErr = err // said by the reader's next write
			}
			if left == 0 || err != nil || time.Since(begun) > transcriptWait {
				if s.pollStop == stop {
					s.pollStop = nil
				}
				s.mu.Unlock()
				return
			}
			s.mu.Unlock()
		}
	}()
}

// settle writes, as the turn ends, every tool_result still to come: the
// awaited outputs and the calls whose end came without what they were.
func (a *acpTranslator) settle() error {
	if _, err := a.writeAwaited(true); err != nil {
		return err
	}
	if err := a.flushCalls(); err != nil {
		return err
	}
	_, err := a.writeAwaited(true)
	return err
}

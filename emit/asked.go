package emit

// Asked is a permission request: the tool_use it asks about, the tool and
// its input.
type Asked struct {
	RequestID, ToolUseID, Tool string
	Input                      any
}

// Waiting is the latest permission request whose tool_use has no result
// yet: the question an answer now would answer.
func (w *Writer) Waiting() (Asked, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	kept := w.asked[:0] // the answered ones are dropped
	for _, a := range w.asked {
		if w.open[a.ToolUseID] {
			kept = append(kept, a)
		}
	}
	w.asked = kept
	if len(kept) == 0 {
		return Asked{}, false
	}
	return kept[len(kept)-1], true
}

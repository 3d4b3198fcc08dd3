package emit

// SystemAfterInit writes a system message of subtype (notice, warning,
// error) right after system/init: at once when init was written, else as
// soon as it is (written before it, it would make init a default one).
// What a run knows before its provider starts, and the provider's init
// must come first, goes here. The message is redacted.
func (w *Writer) SystemAfterInit(subtype, msg string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.initDone {
		return w.systemLocked(subtype, msg)
	}
	w.afterInit = append(w.afterInit, [2]string{subtype, msg})
	return nil
}

// afterInitLocked writes the system messages that waited for init. The
// caller holds w.mu, and has just written init.
func (w *Writer) afterInitLocked() error {
	pending := w.afterInit
	w.afterInit = nil
	for _, m := range pending {
		if err := w.systemLocked(m[0], m[1]); err != nil {
			return err
		}
	}
	return nil
}

package structured

// recentTools is how many finished tool ids are remembered to drop a
// provider's duplicate events; older ids are forgotten so memory stays flat
// on an endless stream.
const recentTools = 4096

// toolTracker remembers the tool calls of a stream: the ones waiting for a
// result (with name and input, for denials) and a window of finished ones.
type toolTracker struct {
	pending map[string]toolCall
	done    map[string]struct{}
	ring    []string // finished ids in order, for forgetting the oldest
	next    int
}

func newToolTracker() *toolTracker {
	return &toolTracker{pending: map[string]toolCall{}, done: map[string]struct{}{}}
}

// seen reports whether id was used (pending or recently finished).
func (k *toolTracker) seen(id string) bool {
	if _, ok := k.pending[id]; ok {
		return true
	}
	_, ok := k.done[id]
	return ok
}

// get returns a pending call.
func (k *toolTracker) get(id string) (toolCall, bool) {
	tc, ok := k.pending[id]
	return tc, ok
}

// finished reports whether id already has its result.
func (k *toolTracker) finished(id string) bool {
	_, ok := k.done[id]
	return ok
}

func (k *toolTracker) use(id string, tc toolCall) { k.pending[id] = tc }

// finish moves id from pending to the finished window.
func (k *toolTracker) finish(id string) {
	delete(k.pending, id)
	if len(k.ring) < recentTools {
		k.ring = append(k.ring, id)
	} else {
		delete(k.done, k.ring[k.next])
		k.ring[k.next] = id
		k.next = (k.next + 1) % recentTools
	}
	k.done[id] = struct{}{}
}

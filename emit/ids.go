package emit

import (
	"crypto/rand"
	"encoding/hex"
	mrand "math/rand/v2"
	"sync"
)

// base62 is the alphabet of tool-use, message and request ids: the same
// characters Claude's own ids use, safe in URLs and file names.
const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// idLen is the length of the random part of tool-use, message and request
// ids: 24 base62 characters carry about 143 bits, so collisions are not a
// concern within a session.
const idLen = 24

// entropy is the source of every id: ChaCha8 (math/rand/v2), a
// cryptographically strong generator, keyed once with 32 bytes from
// crypto/rand. Every line carries a uuid and assistant lines a message id;
// a crypto/rand read per id (a getrandom system call on most kernels) cost
// more than encoding the line, and buffering those reads still left the
// kernel generating every byte. ChaCha8 produces them in user space at
// memory speed, and without its key (which never leaves this process) its
// output cannot be predicted, so ids stay unique and unguessable as Yume's
// dedupe needs; they are not secrets, and nothing here is used as a key.
var entropy struct {
	mu  sync.Mutex
	gen *mrand.ChaCha8
}

func init() {
	var seed [32]byte
	_, _ = rand.Read(seed[:]) // crypto/rand.Read never fails (Go 1.24+).
	entropy.gen = mrand.NewChaCha8(seed)
}

// randomBytes fills p with unpredictable bytes.
func randomBytes(p []byte) {
	entropy.mu.Lock()
	defer entropy.mu.Unlock()
	_, _ = entropy.gen.Read(p) // ChaCha8.Read never fails.
}

// NewSessionID returns a fresh session id, "sess-" followed by 16 random hex
// digits. It matches ^[a-zA-Z0-9_-]+$, the only form Yume's session route accepts.
func NewSessionID() string {
	var b [8]byte
	randomBytes(b[:])
	return "sess-" + hex.EncodeToString(b[:])
}

// NewToolUseID returns a fresh tool-use id, "toolu_" followed by 24 random
// base62 characters, like the ids Claude Code emits.
func NewToolUseID() string { return randomID("toolu_") }

// newMessageID returns a fresh assistant message id, "msg_" + 24 base62.
func newMessageID() string { return randomID("msg_") }

// newRequestID returns a fresh control request id, "req_" + 24 base62.
func newRequestID() string { return randomID("req_") }

// randomID returns prefix followed by idLen random base62 characters.
func randomID(prefix string) string {
	out := make([]byte, 0, len(prefix)+idLen)
	return string(appendBase62(append(out, prefix...), idLen))
}

// NewUUID returns a random RFC 4122 version 4 UUID in its canonical
// 36-character form, read from crypto/rand.
func NewUUID() string {
	var b [16]byte
	randomBytes(b[:])
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}

// randomBase62 returns n characters drawn uniformly from base62.
func randomBase62(n int) string { return string(appendBase62(make([]byte, 0, n), n)) }

// appendBase62 appends n characters drawn uniformly from base62. Bytes of
// 248 and above are rejected so that the modulo does not bias the result.
func appendBase62(out []byte, n int) []byte {
	var buf [32]byte
	for n > 0 {
		randomBytes(buf[:])
		for _, c := range buf {
			if c >= 248 {
				continue
			}
			out = append(out, base62[c%62])
			if n--; n == 0 {
				break
			}
		}
	}
	return out
}

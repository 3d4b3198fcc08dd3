package emittest

import "github.com/yume-cli/yume-cli/internal/jsonobj"

// maxLine is docs/protocol.md's limit, kept here on purpose rather than taken
// from emit: the checker holds the writer to the contract, not to itself.
// Yume's parser drops a line of this many bytes or more.
const maxLine = 100_000

// fields is a JSON object whose members are decoded on demand.
type fields = jsonobj.Object

// quote renders (the start of) b for a problem report.
func quote(b []byte) string { return jsonobj.Quote(b) }

package emit

import "github.com/yume-cli/yume-cli/internal/jsonobj"

// fields is a JSON object whose members are decoded on demand, so that a
// wrongly typed member can be named in the error.
type fields = jsonobj.Object

// quote renders (the start of) b for an error message.
func quote(b []byte) string { return jsonobj.Quote(b) }

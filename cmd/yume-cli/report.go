package main

import (
	"io"

	"github.com/yume-cli/yume-cli/emit"
)

// reportStream tells Yume about an error that happened before a session
// started: init (so the stream is well formed), a system error, an error
// result and message_stop.
func reportStream(out io.Writer, err error) {
	w := emit.NewWriter(out, emit.Config{})
	_ = w.Init("default", []string{}) // Best effort: stdout may be gone.
	_ = w.Fail(err)
}

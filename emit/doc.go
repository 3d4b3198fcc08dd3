// Package emit owns everything yume-cli writes to stdout and reads as
// control frames on stdin.
//
// Yume (the desktop GUI) parses Claude Code's stream-json: one JSON object
// per line, each with a string "type". Writer produces those lines in either
// the Claude shapes (assistant/user messages with content blocks, the
// default) or the flat shapes (text, tool_use, tool_result), and enforces the
// rules the GUI depends on: system/init first and once, a unique uuid on
// every line (the GUI drops a line byte-identical to a recent one), valid
// UTF-8, every line under MaxLine bytes, tool output redacted and capped, and
// exactly one result followed by message_stop per turn.
//
// ParseControl reads the frames a host sends on stdin (Yume's planned
// frames and Claude SDK control responses). Validate checks a whole stdout
// stream against the contract; other packages' tests run their output
// through it.
//
// Of the project's packages it imports only two leaves: permission, for
// the modes and answers control frames carry, and internal/jsonfast, the
// string encoder behind every line.
package emit

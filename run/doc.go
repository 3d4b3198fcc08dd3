// Package run owns one yume-cli session, from a Config the command built
// to the stream's last line: it picks the mode (the PTY, or the provider's
// JSON or ACP), starts the program (the guessed start of a release not
// probed yet), carries the conversation and a persistent session's turns,
// reads the GUI's control frames, keeps Yume's AgentOutput for a
// background agent, and guarantees the stream ends with exactly one result.
//
// It sits between cmd/yume-cli (flags, commands, the process's streams)
// and the engines it drives: driver for a PTY session, structured for a
// machine-readable one, emit for what comes out.
package run

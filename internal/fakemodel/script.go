// Package fakemodel is a scripted model server for tests: it speaks the
// streaming dialects of the Anthropic Messages API, OpenAI Chat Completions,
// OpenAI Responses and Gemini generateContent on 127.0.0.1 only, so the real
// coding CLIs can be run offline against it.
//
// A Script lists the replies in order. Every request that offers tools to the
// model (an agent turn) takes the next reply; requests without tools (title
// generation, routing, quota checks) get the Aux reply instead, so the
// CLIs' side requests never shift the script.
package fakemodel

import "encoding/json"

// Reply is one scripted model response, rendered in the dialect of the
// request that receives it.
type Reply struct {
	// Text is the assistant text, streamed in a few chunks.
	Text string
	// ToolCalls are function calls the model asks for after the text.
	ToolCalls []ToolCall
	// Status, when not 0 or 200, makes the server answer with this HTTP
	// status and a dialect-shaped error body carrying ErrorMessage.
	Status int
	// ErrorMessage is the message of an error reply (Status set).
	ErrorMessage string
	// InputTokens, OutputTokens, CacheReadTokens and CacheWriteTokens are
	// the usage reported for the reply, in Anthropic's split: InputTokens
	// are the prompt tokens read neither from nor into the cache. Each
	// dialect reports them its own way (Usage.Wire). An agent reply that
	// sets none of them reports DefaultUsage: a real API always reports
	// usage.
	InputTokens, OutputTokens, CacheReadTokens, CacheWriteTokens int
	// Stall streams the text, then keeps the response open until the client
	// goes away or the server closes: for interrupt tests.
	Stall bool
}

// ToolCall is one function call requested by the model.
type ToolCall struct {
	// ID is the call id; empty means one is generated ("call_fake_N").
	ID string
	// Name is the provider's own tool name (e.g. "Bash", "bash",
	// "run_shell_command", "exec_command").
	Name string
	// Args is marshalled to JSON as the call arguments.
	Args any
	// Custom, when set, makes a custom (freeform) tool call whose input is
	// this text instead of JSON arguments, as GPT models call apply_patch
	// (OpenAI dialects only; the others send {"input": Custom}).
	Custom string
}

// Script is the sequence of replies a Server gives.
type Script struct {
	// Replies are handed out in order to requests that offer tools.
	Replies []Reply
	// RepeatLast repeats the last reply once Replies are used up (use it for
	// error replies that the CLI retries); otherwise an exhausted script
	// answers with ExhaustedText so a CLI never waits forever.
	RepeatLast bool
	// Aux answers requests that offer no tools; nil means a reply with the
	// text "ok".
	Aux func(Request) Reply
	// Side, when set, sees each request that offers tools before the
	// script does: one it answers (ok true) is a CLI's side request (Qwen
	// Code's memory extraction, its follow-up suggestion), given that
	// reply, marked Request.Side and never shifting the script.
	Side func(Request) (reply Reply, ok bool)
}

// Usage is the tokens one reply reported, in Anthropic's split (Input
// excludes the cache reads and writes).
type Usage struct {
	Input, Output, CacheRead, CacheWrite int
}

// DefaultUsage is what an agent reply that names no tokens reports: every
// field non-zero and distinct, so a test can tell them apart.
var DefaultUsage = Usage{Input: 1234, Output: 56, CacheRead: 7890, CacheWrite: 345}

// usage is what the reply reports.
func (r Reply) usage() Usage {
	return Usage{Input: r.InputTokens, Output: r.OutputTokens, CacheRead: r.CacheReadTokens, CacheWrite: r.CacheWriteTokens}
}

// Prompt is every prompt token: what OpenAI's and Gemini's APIs report as
// the prompt (prompt_tokens, input_tokens, promptTokenCount), cached ones
// included.
func (u Usage) Prompt() int { return u.Input + u.CacheRead + u.CacheWrite }

// Wire is u as a client of dialect d can know it, in Anthropic's split:
// the OpenAI and Gemini APIs report cache reads but no cache writes, so
// writes are plain input to them.
func (u Usage) Wire(d Dialect) Usage {
	if d == Anthropic {
		return u
	}
	return Usage{Input: u.Input + u.CacheWrite, Output: u.Output, CacheRead: u.CacheRead}
}

// Add is the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.Input + v.Input, u.Output + v.Output, u.CacheRead + v.CacheRead, u.CacheWrite + v.CacheWrite}
}

// ExhaustedText is the reply text once the script has no reply left.
const ExhaustedText = "fakemodel: script exhausted"

// argsJSON marshals tool arguments, defaulting to an empty object.
func (c ToolCall) argsJSON() string {
	if c.Custom != "" && c.Args == nil {
		b, _ := json.Marshal(map[string]string{"input": c.Custom})
		return string(b)
	}
	if c.Args == nil {
		return "{}"
	}
	if raw, ok := c.Args.(json.RawMessage); ok {
		return string(raw)
	}
	b, err := json.Marshal(c.Args)
	if err != nil {
		// Args come from test code; a value that cannot be marshalled is a
		// bug in the test, reported to the CLI as an empty object and
		// visible in the recorded request that follows.
		return "{}"
	}
	return string(b)
}

// chunks splits text into up to three pieces so clients see real streaming.
func chunks(s string) []string {
	r := []rune(s)
	if len(r) < 6 {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	a, b := len(r)/3, 2*len(r)/3
	return []string{string(r[:a]), string(r[a:b]), string(r[b:])}
}

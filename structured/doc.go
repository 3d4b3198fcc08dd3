// Package structured drives the machine-readable modes of real coding CLIs
// and turns their output into Yume's Claude stream-json through emit:
//
//   - JSON modes: `claude -p --output-format stream-json` (with its stdio
//     permission relay), `codex exec --json`, `gemini --output-format
//     stream-json` and `copilot --output-format json`, one Translator each;
//   - ACP (Agent Client Protocol) for `gemini --acp` and `copilot --acp`,
//     with permission requests routed to the GUI as can_use_tool requests.
//
// Run spawns the provider with pipes in its own process group, reads lines
// of any length, skips and logs malformed ones, relays the provider's stderr
// (never to stdout), answers approvals by the permission mode or the GUI's
// control frames, and guarantees that every turn ends with exactly one
// result, also on errors, crashes and interrupts. Which command line a
// provider takes, from which version, and which translator reads it come
// from its descriptor in the providers registry; the translators here are
// named after the formats they read.
//
// The translators are pure: they read provider lines and call the
// emit.Writer, nothing else, so tests replay captured streams
// (testdata/<provider>/*.jsonl, testdata/acp/*.acp) against golden files.
// Live tests against the real CLIs and the fake model server run with
// YUME_E2E=1.
package structured

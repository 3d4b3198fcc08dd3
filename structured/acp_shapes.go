package structured

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// An ACP tool call's rawInput and rawOutput are the agent's own: opencode
// passes the model's arguments, Codex's adapter its exec event (an argv
// with its shell wrapper, and a call id, turn id and timestamps), Claude's
// adapter the Claude tool's input. What the user is meant to see is the
// call's title, kind, content and locations. These helpers read both into
// the command a person would type and the output the command printed.

// shellNames are the shells whose `-c SCRIPT` wrapper is taken off a
// command: the script is what the model asked for.
var shellNames = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "ash": true, "fish": true}

// shellFlag is a wrapper's option word before the script: -c, -lc, -ic,
// -lic and the like (ending in c, only the login/interactive/errexit
// letters before it).
var shellFlag = lazyre.New(`^-[lieo]*c$`)

// unwrapArgv takes a shell wrapper off an argv: [/bin/bash -lc SCRIPT] and
// [sh -l -c SCRIPT] are SCRIPT (ok true); any other argv is not a wrapper.
func unwrapArgv(argv []string) (string, bool) {
	if len(argv) < 3 {
		return "", false
	}
	sh := argv[0][strings.LastIndexByte(argv[0], '/')+1:]
	if !shellNames[sh] {
		return "", false
	}
	rest := argv[1:]
	for len(rest) > 1 && (rest[0] == "-l" || rest[0] == "--login" || rest[0] == "-i") {
		rest = rest[1:]
	}
	if len(rest) != 2 || !shellFlag.MatchString(rest[0]) {
		return "", false
	}
	return rest[1], true
}

// shellWordSafe are the words a shell reads as they are.
var shellWordSafe = lazyre.New(`^[A-Za-z0-9_@%+=:,./-]+$`)

// quoteWord quotes one argument as a shell needs it: as it is when it is
// plain, else in single quotes (a single quote inside as '\”).
func quoteWord(w string) string {
	if shellWordSafe.MatchString(w) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// argvCommand is the shell command an argv runs: its wrapper's script, or
// its words quoted and joined.
func argvCommand(argv []string) string {
	if s, ok := unwrapArgv(argv); ok {
		return s
	}
	q := make([]string, len(argv))
	for i, w := range argv {
		q[i] = quoteWord(w)
	}
	return strings.Join(q, " ")
}

// stringList reads v as a list of strings (an argv); ok false when it is
// not one.
func stringList(v any) ([]string, bool) {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, false
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// commandOf is the shell command of an execute call's rawInput, in the
// spellings agents use: a string or an argv under command, cmd or argv,
// with separate args joined on; a wrapped script unwrapped. "" when the
// input names no command.
func commandOf(raw map[string]any) string {
	for _, k := range []string{"command", "cmd", "argv", "commandLine", "command_line", "script"} {
		switch v := raw[k].(type) {
		case string:
			if strings.TrimSpace(v) == "" {
				continue
			}
			if args, ok := stringList(raw["args"]); ok {
				return argvCommand(append([]string{v}, args...))
			}
			return unwrapShell(v)
		case []any:
			if argv, ok := stringList(v); ok {
				return argvCommand(argv)
			}
		}
	}
	return ""
}

// titleCommand is a title as a command: without the backticks Claude's
// adapter puts around it.
func titleCommand(title string) string {
	t := strings.TrimSpace(title)
	if len(t) > 1 && strings.HasPrefix(t, "`") && strings.HasSuffix(t, "`") && !strings.Contains(t[1:len(t)-1], "`") {
		t = t[1 : len(t)-1]
	}
	return t
}

// fence is a Markdown code block around a whole text (```lang … ```), as
// agents show a command's output.
var fence = lazyre.New("(?s)^\\s*```[A-Za-z0-9_+-]*\\n(.*)\\n```\\s*$")

// unfence is text without a code fence around the whole of it.
func unfence(s string) string {
	if m := fence.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return s
}

// outputFields are where agents put what a command printed, best first:
// Codex's formatted and aggregated output, a plain output, then stdout
// and stderr (joined).
var outputFields = []string{"formatted_output", "formattedOutput", "aggregated_output", "aggregatedOutput", "output", "result", "content", "text"}

// rawOutputText is what a rawOutput says was printed: a string as it is,
// content blocks as their text, an object's usual output fields (looked
// for one level down too: {"output":{"stdout":…}}), with a non-zero exit
// code said. ok false when it holds no such text: never the object
// serialised.
func rawOutputText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	return valueText(v, 0)
}

func valueText(v any, depth int) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []any:
		var parts []string
		for _, it := range x {
			if m, ok := it.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					parts = append(parts, t)
					continue
				}
				if c, ok := m["content"].(map[string]any); ok {
					if t, ok := c["text"].(string); ok {
						parts = append(parts, t)
					}
				}
			}
		}
		return strings.Join(parts, "\n"), len(parts) > 0
	case map[string]any:
		if depth > 2 {
			return "", false
		}
		out, found := "", false
		for _, k := range outputFields {
			if f, ok := x[k]; ok && f != nil {
				if s, ok := valueText(f, depth+1); ok {
					out, found = s, true
					break
				}
			}
		}
		if !found {
			so, okOut := x["stdout"].(string)
			se, okErr := x["stderr"].(string)
			if okOut || okErr {
				out, found = strings.TrimRight(so, "\n"), true
				if strings.TrimSpace(se) != "" {
					if out != "" {
						out += "\n"
					}
					out += strings.TrimRight(se, "\n")
				}
			}
		}
		if code, ok := exitCodeOf(x); ok && code != 0 {
			if out != "" {
				out = strings.TrimRight(out, "\n") + "\n"
			}
			out, found = out+"exit code "+strconv.Itoa(code), true
		}
		if !found {
			// One level down: {"result":{…}} was tried above; any other
			// single object holding the output.
			for _, k := range []string{"response", "data", "toolResponse"} {
				if s, ok := valueText(x[k], depth+1); ok && x[k] != nil {
					return s, true
				}
			}
		}
		return out, found
	}
	return "", false
}

// exitCodeOf reads an exit code: exit_code, exitCode, or exitStatus /
// exit_status holding one.
func exitCodeOf(m map[string]any) (int, bool) {
	for _, k := range []string{"exit_code", "exitCode"} {
		if f, ok := m[k].(float64); ok {
			return int(f), true
		}
	}
	for _, k := range []string{"exitStatus", "exit_status"} {
		if s, ok := m[k].(map[string]any); ok {
			return exitCodeOf(s)
		}
	}
	return 0, false
}

// noOutput says a finished call printed nothing that could be read, with
// the fields the agent sent instead (their names, never their values).
func noOutput(status string, raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || len(m) == 0 {
		return status
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return fmt.Sprintf("%s (the agent's output held no text; its fields: %s)", status, strings.Join(keys, ", "))
}

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
// with separate args joined on; a wrapped script unwrapped; a list of
// commands (Cline's run_commands) as one line. "" when the input names no
// command.
func commandOf(raw map[string]any) string {
	for _, k := range []string{"command", "cmd", "argv", "commandLine", "command_line"} {
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
	if c := commandsLine(raw["commands"]); c != "" {
		return c
	}
	if s, ok := raw["script"].(string); ok && strings.TrimSpace(s) != "" {
		return unwrapShell(s)
	}
	return ""
}

// commandsLine is a list of commands (Cline's run_commands
// {"commands":[…]}: command lines, or argvs) as one line, joined with
// "; ". The agent runs them one after another, each whatever the one
// before it did (each has its own success in the output), which is what
// "; " says in a shell: "&&" would claim each waits for the one before
// to succeed, and separate lines would not fit Bash's one command. It is
// how a person types several commands on one line, and how Cline's own
// title shows them. "" when v is no such list.
func commandsLine(v any) string {
	list, ok := v.([]any)
	if !ok {
		return ""
	}
	var parts []string
	for _, x := range list {
		switch c := x.(type) {
		case string:
			if strings.TrimSpace(c) != "" {
				parts = append(parts, unwrapShell(strings.TrimSpace(c)))
			}
		case []any:
			if argv, ok := stringList(c); ok {
				parts = append(parts, argvCommand(argv))
			}
		}
	}
	return strings.Join(parts, "; ")
}

// toolPrefix is a tool's name before its call's title ("run_commands:
// echo hi", Cline's): an identifier, a colon and a space.
var toolPrefix = lazyre.New(`^[A-Za-z_][A-Za-z0-9_.-]*:\s+`)

// titleCommand is a title as a command, the last resort for a call whose
// input names none: without the "<tool name>: " before it (Cline's
// "run_commands: CMD"; name, when the agent gives one, else any word so
// spelt) and without the backticks Claude's adapter puts around it.
func titleCommand(title, name string) string {
	t := strings.TrimSpace(title)
	if rest, ok := strings.CutPrefix(t, name+":"); ok && name != "" {
		t = strings.TrimSpace(rest)
	} else if m := toolPrefix.FindString(t); m != "" && len(t) > len(m) {
		t = t[len(m):]
	}
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

// rawOutputText is what a rawOutput says was printed (rawOutputResult,
// without whether the call failed).
func rawOutputText(raw json.RawMessage) (string, bool) {
	out, _, ok := rawOutputResult(raw)
	return out, ok
}

// rawOutputResult is what a rawOutput says was printed and whether the
// call failed: a string as it is (an {"error":…} object sent as a string,
// Cline's rejection, is that error); content blocks as their text; an
// object's usual output fields (looked for one level down too:
// {"output":{"stdout":…}}), with a non-zero exit code said; an array of
// such objects (Cline's [{query,result,success}], one per command) as
// their outputs in order. success:false, isError, an error field or a
// non-zero exit code is a failure, its message said after what was
// printed. ok false when it holds no such text: never the object
// serialised.
func rawOutputResult(raw json.RawMessage) (out string, failed, ok bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false, false
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false, false
	}
	return valueOutput(v, 0)
}

// errorKeys are the fields an {"error":…} object sent as a string holds
// besides its error.
var errorKeys = map[string]bool{"error": true, "code": true, "message": true, "details": true, "type": true, "status": true}

// errorJSON reads a string that is an {"error":…} object, nothing else
// (Cline's "{\"error\":\"User rejected the tool call…\"}"): its message.
// Output that merely is JSON is not one.
func errorJSON(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") {
		return "", false
	}
	var m map[string]any
	if json.Unmarshal([]byte(t), &m) != nil {
		return "", false
	}
	for k := range m {
		if !errorKeys[k] {
			return "", false
		}
	}
	msg := errorMessage(m["error"])
	return msg, msg != ""
}

// errorMessage is an error field's message: a string, or an object's
// message.
func errorMessage(v any) string {
	switch e := v.(type) {
	case string:
		return strings.TrimSpace(e)
	case map[string]any:
		if s, ok := e["message"].(string); ok {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

func valueOutput(v any, depth int) (string, bool, bool) {
	switch x := v.(type) {
	case string:
		if msg, ok := errorJSON(x); ok {
			return msg, true, true
		}
		return x, false, true
	case []any:
		var parts []string
		found, failed := false, false
		for _, it := range x {
			var s string
			var bad, ok bool
			switch m := it.(type) {
			case string:
				s, bad, ok = valueOutput(m, depth+1)
			case map[string]any:
				if t, isText := m["text"].(string); isText {
					s, ok = t, true
				} else if c, isBlock := m["content"].(map[string]any); isBlock {
					s, ok = c["text"].(string)
				} else if depth <= 2 {
					s, bad, ok = valueOutput(m, depth+1)
				}
			}
			failed = failed || bad
			if !ok {
				continue
			}
			found = true
			if s = strings.TrimRight(s, "\n"); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "\n"), failed, found
	case map[string]any:
		if depth > 3 {
			return "", false, false
		}
		out, found, failed := "", false, false
		for _, k := range outputFields {
			if f, ok := x[k]; ok && f != nil {
				if s, bad, ok := valueOutput(f, depth+1); ok {
					out, found, failed = s, true, bad
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
			out, found, failed = out+"exit code "+strconv.Itoa(code), true, true
		}
		if s, _ := x["success"].(bool); x["success"] != nil && !s {
			failed = true
		}
		for _, k := range []string{"isError", "is_error"} {
			if b, _ := x[k].(bool); b {
				failed = true
			}
		}
		if msg := errorMessage(x["error"]); msg != "" {
			failed = true
			if !strings.Contains(out, msg) {
				if out != "" {
					out = strings.TrimRight(out, "\n") + "\n"
				}
				out, found = out+msg, true
			}
		}
		if !found {
			// One level down: {"result":{…}} was tried above; any other
			// single object holding the output.
			for _, k := range []string{"response", "data", "toolResponse"} {
				if x[k] == nil {
					continue
				}
				if s, bad, ok := valueOutput(x[k], depth+1); ok {
					return s, failed || bad, true
				}
			}
		}
		return out, failed, found
	}
	return "", false, false
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

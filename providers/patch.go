package providers

import (
	"strings"

	"github.com/yume-cli/yume-cli/transcript"
)

// The apply_patch format Codex and Copilot's GPT models write files with:
//
//	*** Begin Patch
//	*** Add File: NAME        then "+line" rows
//	*** Update File: NAME     then "@@ …" hunks of " ctx", "-old", "+new" rows
//	*** Move to: NEW          (after Update File)
//	*** Delete File: NAME
//	*** End Patch
//
// Each file becomes Claude's tool: Write{file_path,content} for a new
// file, Edit{file_path,old_string,new_string} for one hunk,
// MultiEdit{file_path,edits} for several, and Bash{command:"rm NAME"} for
// a deletion, so Yume's renderer shows every change.

// PatchCalls turns a patch into one call per file; nil if it is not one.
func PatchCalls(patch string) []transcript.Call {
	lines := strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n")
	var calls []transcript.Call
	var cur *patchFile
	flush := func() {
		if cur != nil {
			calls = append(calls, cur.call())
			cur = nil
		}
	}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "*** Add File: "):
			flush()
			cur = &patchFile{op: "add", path: strings.TrimPrefix(l, "*** Add File: ")}
		case strings.HasPrefix(l, "*** Update File: "):
			flush()
			cur = &patchFile{op: "update", path: strings.TrimPrefix(l, "*** Update File: ")}
		case strings.HasPrefix(l, "*** Delete File: "):
			flush()
			calls = append(calls, transcript.Call{Name: "Bash", Input: map[string]any{
				"command": "rm " + shellWord(strings.TrimPrefix(l, "*** Delete File: ")), "description": "delete file (apply_patch)"}})
		case strings.HasPrefix(l, "*** Move to: ") && cur != nil:
			cur.moveTo = strings.TrimPrefix(l, "*** Move to: ")
		case strings.HasPrefix(l, "*** "): // Begin/End Patch, End of File
		case cur != nil:
			cur.line(l)
		}
	}
	flush()
	return calls
}

type patchFile struct {
	op, path, moveTo string
	content          []string
	hunks            []hunk
}

type hunk struct{ old, new []string }

func (f *patchFile) line(l string) {
	if f.op == "add" {
		if strings.HasPrefix(l, "+") {
			f.content = append(f.content, l[1:])
		}
		return
	}
	if strings.HasPrefix(l, "@@") || len(f.hunks) == 0 {
		f.hunks = append(f.hunks, hunk{})
		if strings.HasPrefix(l, "@@") {
			return
		}
	}
	h := &f.hunks[len(f.hunks)-1]
	switch {
	case strings.HasPrefix(l, "-"):
		h.old = append(h.old, l[1:])
	case strings.HasPrefix(l, "+"):
		h.new = append(h.new, l[1:])
	case strings.HasPrefix(l, " "):
		h.old, h.new = append(h.old, l[1:]), append(h.new, l[1:])
	}
}

func (f *patchFile) call() transcript.Call {
	if f.op == "add" {
		return transcript.Call{Name: "Write", Input: map[string]any{"file_path": f.path, "content": joinLines(f.content)}}
	}
	var edits []any
	for _, h := range f.hunks {
		if len(h.old) > 0 || len(h.new) > 0 {
			edits = append(edits, map[string]any{"old_string": strings.Join(h.old, "\n"), "new_string": strings.Join(h.new, "\n")})
		}
	}
	in := map[string]any{"file_path": f.path}
	if f.moveTo != "" {
		in["move_to"] = f.moveTo
	}
	if len(edits) == 1 {
		e := edits[0].(map[string]any)
		in["old_string"], in["new_string"] = e["old_string"], e["new_string"]
		return transcript.Call{Name: "Edit", Input: in}
	}
	in["edits"] = edits
	return transcript.Call{Name: "MultiEdit", Input: in}
}

// joinLines is the file text of added lines: each ends with a newline.
func joinLines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

// shellWord quotes a file name for a shown rm command.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

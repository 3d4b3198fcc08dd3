package providers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// Qwen Code's memory agents have no flag or variable to turn them off,
// only settings (memory.enableManagedAutoMemory and the like), and the
// user's settings files are the user's. So yume-cli gives Qwen a system
// settings file of its own: system settings win over user and workspace
// ones, and the file is the user's system settings (when there are any)
// with the switches added, so nothing an administrator set is lost.
// QWEN_CODE_SYSTEM_SETTINGS_PATH names it; the system defaults file,
// which Qwen looks for beside the system settings, keeps its own place.

// qwenSideAgentSettings are the memory agents that run tools unasked:
// extraction after each turn, the dreamer, the skill reviewer.
var qwenSideAgentSettings = []string{"enableManagedAutoMemory", "enableManagedAutoDream", "enableAutoSkill"}

// qwenSideAgentsOff writes the system settings file that turns Qwen's
// memory agents off (once per content, in yume-cli's cache) and returns
// the variables that point Qwen at it.
func qwenSideAgentsOff(getenv func(string) string) ([]string, error) {
	sys := getenv("QWEN_CODE_SYSTEM_SETTINGS_PATH")
	if sys == "" {
		sys = qwenSystemSettingsPath(runtime.GOOS)
	}
	defaults := getenv("QWEN_CODE_SYSTEM_DEFAULTS_PATH")
	if defaults == "" {
		defaults = filepath.Join(filepath.Dir(sys), "system-defaults.json")
	}
	b, err := os.ReadFile(sys)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading Qwen's system settings: %w", err)
	}
	merged, err := qwenSettingsWithSideAgentsOff(b)
	if err != nil {
		return nil, fmt.Errorf("Qwen's system settings %s: %w (Qwen would refuse them too: fix the file)", sys, err)
	}
	path, err := writeCached("qwen-system-settings", merged)
	if err != nil {
		return nil, err
	}
	return []string{"QWEN_CODE_SYSTEM_SETTINGS_PATH=" + path, "QWEN_CODE_SYSTEM_DEFAULTS_PATH=" + defaults}, nil
}

// qwenSystemSettingsPath is where Qwen reads system settings on goos
// when no variable moves them.
func qwenSystemSettingsPath(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/QwenCode/settings.json"
	case "windows":
		return `C:\ProgramData\qwen-code\settings.json`
	}
	return "/etc/qwen-code/settings.json"
}

// qwenSettingsWithSideAgentsOff is settings (JSON with comments, as Qwen
// reads it; empty for none) with every memory agent switched off.
func qwenSettingsWithSideAgentsOff(settings []byte) ([]byte, error) {
	top := map[string]any{}
	if text := bytes.TrimSpace(stripJSONComments(bytes.TrimPrefix(settings, []byte("\ufeff")))); len(text) > 0 {
		d := json.NewDecoder(bytes.NewReader(text))
		d.UseNumber() // big numbers stay as written
		if err := d.Decode(&top); err != nil {
			return nil, fmt.Errorf("not a JSON object: %w", err)
		}
		if d.More() {
			return nil, errors.New("more than one JSON value")
		}
	}
	memory, _ := top["memory"].(map[string]any)
	if memory == nil {
		memory = map[string]any{}
	}
	for _, k := range qwenSideAgentSettings {
		memory[k] = false
	}
	top["memory"] = memory
	return json.MarshalIndent(top, "", "  ")
}

// stripJSONComments blanks // and /* */ comments outside strings, as the
// strip-json-comments package Qwen reads settings with does.
func stripJSONComments(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '"':
			j := i + 1
			for ; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' {
					j++
				}
			}
			j = min(j, len(b)-1)
			out = append(out, b[i:j+1]...)
			i = j
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			if i < len(b) {
				out = append(out, '\n')
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return append(out, ' ') // unclosed: the rest is comment
			}
			out = append(out, ' ')
			i += 2 + end + 1
		default:
			out = append(out, b[i])
		}
	}
	return out
}

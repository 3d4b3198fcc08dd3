package providers

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestSideAgentsEnv: Qwen's memory agents are turned off everywhere but
// in auto mode where the program waits for them; a provider without side
// agents gets nothing.
func TestSideAgentsEnv(t *testing.T) {
	qwen, _ := Lookup("qwen")
	claude, _ := Lookup("claude")
	env := func(string) string { return "" }
	for _, c := range []struct {
		p           *Provider
		auto, waits bool
		off         bool
	}{
		{qwen, true, true, false},
		{qwen, true, false, true},
		{qwen, false, true, true},
		{qwen, false, false, true},
		{claude, false, false, false},
		{nil, false, false, false},
	} {
		got, err := SideAgentsEnv(c.p, c.auto, c.waits, env)
		if err != nil {
			t.Fatal(err)
		}
		if off := len(got) > 0; off != c.off {
			t.Errorf("%v auto=%v waits=%v: env %q, want off=%v", c.p, c.auto, c.waits, got, c.off)
		}
	}
	keep := func(k string) string { return map[string]string{KeepSideAgents: "keep"}[k] }
	if got, err := SideAgentsEnv(qwen, false, false, keep); err != nil || got != nil {
		t.Errorf("%s=keep: env %q, %v: want nothing added", KeepSideAgents, got, err)
	}
	json, _ := qwen.ModeFor(ModeJSON, "")
	acp, _ := qwen.ModeFor(ModeACP, "")
	if !json.WaitsForSideAgents || acp.WaitsForSideAgents {
		t.Errorf("qwen json waits %v, acp waits %v: want only headless qwen to wait", json.WaitsForSideAgents, acp.WaitsForSideAgents)
	}
}

// TestQwenSideAgentsOff: the file Qwen is pointed at is the user's system
// settings with the memory agents off; the system defaults stay where
// Qwen would have looked for them; a file Qwen could not read is an error
// that names it.
func TestQwenSideAgentsOff(t *testing.T) {
	dir := t.TempDir()
	sys := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(sys, []byte("\ufeff{\n  // the team's\n  \"model\": {\"name\": \"team-model\"},\n  \"memory\": {\"enableManagedAutoMemory\": true, \"agentMaxTurns\": 3}\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"QWEN_CODE_SYSTEM_SETTINGS_PATH": sys}
	got, err := qwenSideAgentsOff(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, kv := range got {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	if vars["QWEN_CODE_SYSTEM_DEFAULTS_PATH"] != filepath.Join(dir, "system-defaults.json") {
		t.Errorf("defaults %q: want beside the user's system settings", vars["QWEN_CODE_SYSTEM_DEFAULTS_PATH"])
	}
	b, err := os.ReadFile(vars["QWEN_CODE_SYSTEM_SETTINGS_PATH"])
	if err != nil {
		t.Fatal(err)
	}
	var merged map[string]any
	if err := json.Unmarshal(b, &merged); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"model":  map[string]any{"name": "team-model"},
		"memory": map[string]any{"enableManagedAutoMemory": false, "enableManagedAutoDream": false, "enableAutoSkill": false, "agentMaxTurns": 3.0},
	}
	if !reflect.DeepEqual(merged, want) {
		t.Errorf("settings %s, want %v", b, want)
	}
	again, err := qwenSideAgentsOff(func(k string) string { return env[k] })
	if err != nil || !reflect.DeepEqual(again, got) {
		t.Errorf("second run %q, %v: want the same file", again, err)
	}

	if err := os.WriteFile(sys, []byte(`{"memory": `), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := qwenSideAgentsOff(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), sys) {
		t.Errorf("broken settings: error %v, want one naming %s", err, sys)
	}
	env["QWEN_CODE_SYSTEM_SETTINGS_PATH"] = filepath.Join(dir, "none.json")
	if _, err := qwenSideAgentsOff(func(k string) string { return env[k] }); err != nil {
		t.Errorf("no system settings: %v", err)
	}
	for goos, want := range map[string]string{"linux": "/etc/qwen-code/settings.json", "darwin": "/Library/Application Support/QwenCode/settings.json", "windows": `C:\ProgramData\qwen-code\settings.json`} {
		if got := qwenSystemSettingsPath(goos); got != want {
			t.Errorf("%s: %q, want %q", goos, got, want)
		}
	}
}

// TestStripJSONComments: generated JSON, comments put between its
// tokens, reads back as it was; comment marks inside strings stay.
func TestStripJSONComments(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	pieces := []string{"a", "//", "/*", "*/", `\"`, `\\`, " ", "é", "\\n"}
	str := func() string {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return `"` + b.String() + `"`
	}
	comment := func() string {
		switch rng.IntN(4) {
		case 0:
			return "// note " + strings.Trim(str(), `"`) + "\n"
		case 1:
			return "/* note " + strings.ReplaceAll(strings.Trim(str(), `"`), "*", "") + " */"
		}
		return " "
	}
	for i := range 500 {
		var b strings.Builder
		b.WriteString("{" + comment())
		n := rng.IntN(5)
		for k := range n {
			fmt.Fprintf(&b, "%s%s:%s%s%s", str(), comment(), comment(), str(), comment())
			if k < n-1 {
				b.WriteString("," + comment())
			}
		}
		b.WriteString("}" + comment())
		src := b.String()
		var got any
		if err := json.Unmarshal(stripJSONComments([]byte(src)), &got); err != nil {
			t.Fatalf("case %d (seed %d): %v\n%s\nstripped: %s", i, seed, err, src, stripJSONComments([]byte(src)))
		}
	}
	for src, want := range map[string]string{
		`{"a": "x // y"} // end`:      `{"a": "x // y"} `,
		`{"a": "q\"/*"} /* c */`:      `{"a": "q\"/*"}  `,
		`{"a": 1 /* unclosed`:         `{"a": 1  `,
		"{\"a\": 1 // c\n, \"b\": 2}": "{\"a\": 1 \n, \"b\": 2}",
	} {
		if got := string(stripJSONComments([]byte(src))); got != want {
			t.Errorf("%q: %q, want %q", src, got, want)
		}
	}
}

// FuzzQwenSettings: whatever the user's system settings hold, the merge
// either says why it cannot read them or gives a JSON object with every
// memory agent off and the rest of the user's settings kept.
func FuzzQwenSettings(f *testing.F) {
	for _, s := range []string{"", "{}", "// c\n{\"a\": 1}", `{"memory": 3}`, `{"memory": {"x": "/*"}} /* t */`, "\ufeff{}", `[1]`, `{"a": "\"//"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := qwenSettingsWithSideAgentsOff(in)
		if err != nil {
			return
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q gave %q: %v", in, out, err)
		}
		memory, _ := got["memory"].(map[string]any)
		for _, k := range qwenSideAgentSettings {
			if memory[k] != false {
				t.Fatalf("%q gave %q: %s is not off", in, out, k)
			}
		}
	})
}

// TestQwenSideAgentsOffUnwritableCache: a cache yume-cli cannot write is
// an error that says what to set, not a run with the agents left on.
func TestQwenSideAgentsOffUnwritableCache(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("YUME_HOME", file) // the cache would be file/cache
	qwen, _ := Lookup("qwen")
	_, err := SideAgentsEnv(qwen, false, false, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "YUME_HOME") || !strings.Contains(err.Error(), "qwen not started") {
		t.Errorf("error %v: want qwen not started, and what to set", err)
	}
}

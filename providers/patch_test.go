package providers

import (
	"encoding/json"
	"testing"
)

func TestPatchCalls(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: notes/new.txt\n+alpha\n+beta\n*** Update File: main.go\n@@ func main\n func main() {\n-\tprintln(1)\n+\tprintln(2)\n }\n*** Update File: two.go\n@@\n-a\n+b\n@@\n-c\n+d\n*** Delete File: old file.txt\n*** End Patch\n"
	got, _ := json.Marshal(PatchCalls(patch))
	want := `[{"Name":"Write","Input":{"content":"alpha\nbeta\n","file_path":"notes/new.txt"}},` +
		`{"Name":"Edit","Input":{"file_path":"main.go","new_string":"func main() {\n\tprintln(2)\n}","old_string":"func main() {\n\tprintln(1)\n}"}},` +
		`{"Name":"MultiEdit","Input":{"edits":[{"new_string":"b","old_string":"a"},{"new_string":"d","old_string":"c"}],"file_path":"two.go"}},` +
		`{"Name":"Bash","Input":{"command":"rm 'old file.txt'","description":"delete file (apply_patch)"}}]`
	if string(got) != want {
		t.Errorf("PatchCalls =\n%s\nwant\n%s", got, want)
	}
	if PatchCalls("not a patch") != nil {
		t.Error("a text without file headers is not a patch")
	}
}

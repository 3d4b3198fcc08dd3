package providers

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestIsPathAndNotFound(t *testing.T) {
	tests := []struct {
		bin  string
		path bool
	}{
		{"copilot", false},
		{"./copilot", true},
		{"/usr/local/bin/copilot", true},
		{filepath.Join("npm", "copilot.cmd"), true},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsPath(tt.bin); got != tt.path {
			t.Errorf("IsPath(%q) = %v; want %v", tt.bin, got, tt.path)
		}
		msg := NotFound(tt.bin).Error()
		if want := map[bool]string{true: "does not exist", false: "not found in PATH"}[tt.path]; !strings.Contains(msg, want) {
			t.Errorf("NotFound(%q) = %q; want it to say %q", tt.bin, msg, want)
		}
	}
}

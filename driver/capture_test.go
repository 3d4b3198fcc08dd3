package driver

import (
	"fmt"
	"strings"
	"testing"
)

func TestCaptureKeepsHeadAndTail(t *testing.T) {
	tests := []struct {
		name   string
		lines  int
		last   string
		capped bool
	}{
		{"small", 10, "last-line", false},
		{"large, short last line", 40000, "end", true},
		{"large, long last line", 40000, strings.Repeat("z", 300), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCapture("id", nil, 0, 100<<10, nil)
			c.add("") // leading blank lines are not output
			for i := 0; i < tt.lines; i++ {
				c.add(fmt.Sprintf("line %d of a long log", i))
			}
			c.add(tt.last)
			got := c.text()
			if !strings.HasPrefix(got, "line 0 of") || !strings.HasSuffix(got, tt.last) {
				t.Errorf("head or tail lost: %.40q … %q", got, got[max(0, len(got)-40):])
			}
			if strings.Contains(got, "omitted") != tt.capped || len(got) > 101<<10 {
				t.Errorf("%d bytes, capped %v", len(got), strings.Contains(got, "omitted"))
			}
		})
	}
}

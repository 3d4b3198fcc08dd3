package main

import (
	"testing"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// TestEveryPatternCompiles: the packages' regular expressions compile on
// first use (lazyre), not at init; yume-cli links every package, so this
// compiles each one a run could reach.
func TestEveryPatternCompiles(t *testing.T) {
	if err := lazyre.CompileAll(); err != nil {
		t.Fatal(err)
	}
}

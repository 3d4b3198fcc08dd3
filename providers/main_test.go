package providers

import (
	"os"
	"testing"
)

// TestMain keeps the probe cache in a directory of the test's own.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "yume-home-")
	if err != nil {
		panic(err)
	}
	os.Setenv("YUME_HOME", home)
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

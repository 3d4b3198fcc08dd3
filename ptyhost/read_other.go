//go:build unix && !linux

package ptyhost

import "os"

// readMaster reads the master as any file (see read_linux.go for why Linux
// differs).
func readMaster(f *os.File, b []byte) (int, error) { return f.Read(b) }

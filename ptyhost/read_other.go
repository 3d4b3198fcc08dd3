//go:build unix && !linux

package ptyhost

import "os"

// masterReader reads the master as any file (see read_linux.go for why
// Linux differs).
type masterReader struct{ f *os.File }

func newMasterReader(f *os.File) *masterReader { return &masterReader{f} }

func (r *masterReader) read(b []byte) (int, error) { return r.f.Read(b) }

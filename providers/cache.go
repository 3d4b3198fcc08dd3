package providers

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// CacheDir is where yume-cli keeps what it learned about binaries and the
// files it makes for them:
// $YUME_HOME/cache, else the user's cache directory.
func CacheDir() string {
	if h := os.Getenv("YUME_HOME"); h != "" {
		return filepath.Join(h, "cache")
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "yume-cli")
	}
	return ""
}

// writeCached keeps content in yume-cli's cache under a name made of
// name and its hash (written once, atomically) and returns the path.
// There is no fallback to a shared temporary directory: the file is
// settings a program obeys, and another user could swap it there.
func writeCached(name string, content []byte) (string, error) {
	dir := CacheDir()
	if dir == "" {
		return "", errors.New("yume-cli has no cache directory (no home directory): set YUME_HOME to a directory of yours")
	}
	sum := sha256.Sum256(content)
	path := filepath.Join(dir, fmt.Sprintf("%s-%x.json", name, sum[:8]))
	if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, content) {
		return path, nil
	}
	if err := writeAtomic(path, content); err != nil {
		return "", fmt.Errorf("yume-cli's cache %s: %w (set YUME_HOME to a writable directory of yours)", dir, err)
	}
	return path, nil
}

// writeAtomic writes content to path through a temporary file beside it,
// so a reader sees the old file or the new one, never half of one.
func writeAtomic(path string, content []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(content)
	if err := errors.Join(werr, tmp.Close()); err != nil {
		_ = os.Remove(tmp.Name()) // Best effort: the write already failed.
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name()) // Best effort: the rename already failed.
		return err
	}
	return nil
}

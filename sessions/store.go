package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/yume-cli/yume-cli/internal/lazyre"
)

// Store is the session directory.
type Store struct{ root string }

// DefaultRoot is $YUME_HOME/sessions, else ~/.yume/sessions.
func DefaultRoot() string {
	if h := os.Getenv("YUME_HOME"); h != "" {
		return filepath.Join(h, "sessions")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".yume", "sessions")
	}
	return filepath.Join(home, ".yume", "sessions")
}

// Open returns the store at root (created on the first write).
func Open(root string) *Store { return &Store{root: root} }

// Root is the store's directory.
func (s *Store) Root() string { return s.root }

// idShape is what a session id may look like: it names a file.
var idShape = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// ValidID reports whether id can name a session.
func ValidID(id string) bool { return idShape.MatchString(id) && !strings.Contains(id, "..") }

func (s *Store) path(provider, id string) string {
	return filepath.Join(s.root, provider, id+".json")
}

// Load reads session id of any provider.
func (s *Store) Load(id string) (*Session, error) {
	if !ValidID(id) {
		return nil, fmt.Errorf("%q is not a session id (letters, digits, '.', '_', '-')", id)
	}
	matches, _ := filepath.Glob(filepath.Join(s.root, "*", id+".json"))
	if len(matches) == 0 {
		return nil, fmt.Errorf("%w %q in %s", ErrNotFound, id, s.root)
	}
	return readSession(matches[0])
}

func readSession(path string) (*Session, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var sess Session
	if err := json.Unmarshal(b, &sess); err != nil {
		return nil, &CorruptError{Path: path, Err: err}
	}
	if sess.ID == "" || sess.Provider == "" {
		return nil, &CorruptError{Path: path, Err: errors.New("no id or provider")}
	}
	return &sess, nil
}

// Save writes the session and its index entry, atomically and under the
// store's lock.
func (s *Store) Save(sess *Session) error {
	if !ValidID(sess.ID) || !ValidID(sess.Provider) {
		return fmt.Errorf("cannot store session %q of provider %q: not a valid id", sess.ID, sess.Provider)
	}
	return s.locked(func() error {
		b, err := json.MarshalIndent(sess, "", "  ")
		if err != nil {
			return err
		}
		if err := writeAtomic(s.path(sess.Provider, sess.ID), b); err != nil {
			return err
		}
		idx, _ := s.readIndex() // A bad index is rebuilt below.
		if idx == nil {
			if idx, err = s.scan(); err != nil {
				return err
			}
		}
		idx = upsert(idx, sess.index())
		return s.writeIndex(idx)
	})
}

// List is the index, newest first; a missing or corrupt index is rebuilt
// from the session files first.
func (s *Store) List() ([]IndexEntry, error) {
	var out []IndexEntry
	err := s.locked(func() error {
		idx, err := s.readIndex()
		if err != nil {
			if idx, err = s.scan(); err != nil {
				return err
			}
			if err := s.writeIndex(idx); err != nil {
				return err
			}
		}
		out = idx
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, err
}

// Remove deletes session id and its index entry.
func (s *Store) Remove(id string) error {
	sess, err := s.Load(id)
	if err != nil {
		return err
	}
	return s.locked(func() error {
		if err := os.Remove(s.path(sess.Provider, id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		idx, err := s.readIndex()
		if err != nil {
			if idx, err = s.scan(); err != nil {
				return err
			}
		}
		out := idx[:0]
		for _, e := range idx {
			if e.ID != id {
				out = append(out, e)
			}
		}
		return s.writeIndex(out)
	})
}

func (s *Store) indexPath() string { return filepath.Join(s.root, "index.json") }

// readIndex reads index.json; an error means it must be rebuilt.
func (s *Store) readIndex() ([]IndexEntry, error) {
	b, err := os.ReadFile(s.indexPath())
	if err != nil {
		return nil, err
	}
	var idx []IndexEntry
	if err := json.Unmarshal(b, &idx); err != nil {
		return nil, err
	}
	return idx, nil
}

func (s *Store) writeIndex(idx []IndexEntry) error {
	if idx == nil {
		idx = []IndexEntry{}
	}
	b, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(s.indexPath(), b)
}

// scan rebuilds the index from the session files; corrupt ones are left
// out (and left alone).
func (s *Store) scan() ([]IndexEntry, error) {
	paths, err := filepath.Glob(filepath.Join(s.root, "*", "*.json"))
	if err != nil {
		return nil, err
	}
	idx := []IndexEntry{}
	for _, p := range paths {
		if sess, err := readSession(p); err == nil {
			idx = append(idx, sess.index())
		}
	}
	return idx, nil
}

func upsert(idx []IndexEntry, e IndexEntry) []IndexEntry {
	for i := range idx {
		if idx[i].ID == e.ID {
			idx[i] = e
			return idx
		}
	}
	return append(idx, e)
}

// writeAtomic writes b to path through a temp file in the same directory,
// synced before the rename, so a reader sees the old file or the new one.
// Files are 0600: sessions hold what the user typed and what tools printed.
func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // Best effort: gone after the rename.
	if _, err := tmp.Write(b); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

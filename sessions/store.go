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
	"sync"
	"syscall"

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

const (
	sessionExt = ".json"
	// entryExt names a session's index entry, beside its file. It is not
	// .json, so that no reader of <provider>/*.json (an older yume-cli
	// among them) takes an entry for a session.
	entryExt  = ".entry"
	tmpPrefix = ".tmp-"
)

func (s *Store) path(provider, id string) string {
	return filepath.Join(s.root, provider, id+sessionExt)
}

func (s *Store) entryPath(provider, id string) string {
	return filepath.Join(s.root, provider, id+entryExt)
}

// legacyIndexPath is the whole-store index earlier yume-cli versions kept:
// read and rewritten on every turn. The session files hold everything it held;
// List builds the entries it lacks from them and then removes it, so that
// an older yume-cli run later rebuilds it instead of trusting a stale one.
func (s *Store) legacyIndexPath() string { return filepath.Join(s.root, "index.json") }

// Load reads session id of any provider. It looks in each provider's
// directory by name: its cost does not depend on how many sessions exist.
func (s *Store) Load(id string) (*Session, error) {
	if !ValidID(id) {
		return nil, fmt.Errorf("%q is not a session id (letters, digits, '.', '_', '-')", id)
	}
	for _, p := range s.providers() {
		sess, err := readSession(s.path(p, id))
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			continue
		}
		return sess, err
	}
	return nil, fmt.Errorf("%w %q in %s", ErrNotFound, id, s.root)
}

// providers are the provider directories, in name order.
func (s *Store) providers() []string {
	ents, _ := os.ReadDir(s.root) // A missing store has none.
	var out []string
	for _, e := range ents {
		if (e.IsDir() || e.Type()&fs.ModeSymlink != 0) && ValidID(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
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

// entryFile is what <provider>/<id>.entry holds: the session's index entry
// and the size and modification time of the session file it was made
// from. An entry whose file has changed since (a writer killed between
// the two renames) is stale, and List makes it again from the file.
type entryFile struct {
	IndexEntry
	FileSize  int64 `json:"file_size"`
	FileMtime int64 `json:"file_mtime_ns"`
	// Corrupt: the session file cannot be read; it is left out of the
	// list until it changes.
	Corrupt bool `json:"corrupt,omitempty"`
}

func (e *entryFile) of(fi fs.FileInfo) bool {
	return fi != nil && e.FileSize == fi.Size() && e.FileMtime == fi.ModTime().UnixNano()
}

func newEntry(ie IndexEntry, fi fs.FileInfo) entryFile {
	return entryFile{IndexEntry: ie, FileSize: fi.Size(), FileMtime: fi.ModTime().UnixNano()}
}

// crashPoint is called at each step of a write; a test kills the process
// there.
var crashPoint = func(string) {}

// Save writes the session and its index entry, atomically and under the
// store's lock. It touches that session's two files and nothing else, so
// its cost does not depend on how many sessions the store holds.
func (s *Store) Save(sess *Session) error {
	if !ValidID(sess.ID) || !ValidID(sess.Provider) {
		return fmt.Errorf("cannot store session %q of provider %q: not a valid id", sess.ID, sess.Provider)
	}
	return s.locked(func() error {
		crashPoint("save:locked")
		b, err := json.MarshalIndent(sess, "", "  ")
		if err != nil {
			return err
		}
		fi, err := writeAtomic(s.path(sess.Provider, sess.ID), b, true)
		if err != nil {
			return err
		}
		crashPoint("save:session-renamed")
		return s.writeEntry(sess.Provider, sess.ID, newEntry(sess.index(), fi))
	})
}

// writeEntry writes an index entry. It is written in place and not
// synced: an entry is made again from its session file whenever it is
// missing, unreadable or stale (a kill between the truncation and the
// write leaves it empty), so it needs neither, and a turn is spared a
// temp file and a rename.
func (s *Store) writeEntry(provider, id string, e entryFile) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(s.entryPath(provider, id), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	crashPoint("entry:truncated")
	if _, err := f.Write(b); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// List is every session's index entry, newest first. It reads the entries
// without the lock (each file is replaced whole, so a turn running at the
// same time is not held up); when one is missing, stale or unreadable, or
// a killed writer left a temp file behind, it takes the lock and puts the
// store right, making entries again from the session files.
func (s *Store) List() ([]IndexEntry, error) {
	out, dirty, err := s.scan(false)
	if err == nil && dirty {
		err = s.locked(func() error {
			var err error
			out, _, err = s.scan(true)
			return err
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, err
}

// scan reads every provider directory's entries. Without fix it reports
// whether anything needs putting right; with fix (under the lock) it puts
// it right: entries made from their session files (a corrupt one is
// marked so and left as it is), entries of removed sessions and temp
// files removed, the legacy index removed once every entry exists.
func (s *Store) scan(fix bool) (out []IndexEntry, dirty bool, err error) {
	if _, err := os.Lstat(s.legacyIndexPath()); err == nil {
		if !fix {
			return nil, true, nil
		}
		defer func() {
			if err == nil {
				err = ignoreNotExist(os.Remove(s.legacyIndexPath()))
			}
		}()
	}
	if fix {
		if err := s.removeTemps(s.root); err != nil {
			return nil, false, err
		}
	}
	var items []scanItem
	for _, p := range s.providers() {
		dir := filepath.Join(s.root, p)
		ents, err := os.ReadDir(dir)
		if err != nil {
			return nil, false, err
		}
		files := map[string]bool{}
		var entries []string
		for _, e := range ents {
			switch n := e.Name(); {
			case strings.HasPrefix(n, tmpPrefix):
				if !fix {
					return nil, true, nil
				}
				if err := ignoreNotExist(os.Remove(filepath.Join(dir, n))); err != nil {
					return nil, false, err
				}
			case strings.HasSuffix(n, sessionExt) && ValidID(strings.TrimSuffix(n, sessionExt)):
				files[strings.TrimSuffix(n, sessionExt)] = true
				items = append(items, scanItem{provider: p, id: strings.TrimSuffix(n, sessionExt), file: e})
			case strings.HasSuffix(n, entryExt) && ValidID(strings.TrimSuffix(n, entryExt)):
				entries = append(entries, strings.TrimSuffix(n, entryExt))
			}
		}
		for _, id := range entries {
			if !files[id] { // its session was removed
				if !fix {
					return nil, true, nil
				}
				if err := ignoreNotExist(os.Remove(s.entryPath(p, id))); err != nil {
					return nil, false, err
				}
			}
		}
	}
	s.check(items)
	out = make([]IndexEntry, 0, len(items))
	for _, it := range items {
		switch {
		case it.err != nil:
			return nil, false, it.err
		case it.gone:
		case !it.stale:
			if !it.entry.Corrupt {
				out = append(out, it.entry.IndexEntry)
			}
		case !fix:
			return nil, true, nil
		default:
			e, err := s.entryFromFile(it.provider, it.id, it.fi)
			if err != nil {
				return nil, false, err
			}
			crashPoint("list:entry-made")
			if err := s.writeEntry(it.provider, it.id, e); err != nil {
				return nil, false, err
			}
			if !e.Corrupt {
				out = append(out, e.IndexEntry)
			}
		}
	}
	return out, false, nil
}

// scanItem is a session file List has found, and what its entry says.
type scanItem struct {
	provider, id string
	file         fs.DirEntry
	fi           fs.FileInfo
	entry        entryFile
	gone, stale  bool // removed since its directory was read; its entry is missing, unreadable or stale
	err          error
}

// check reads the items' entries, a few at a time: with a hundred
// thousand sessions List spends its time in system calls, and these only
// read.
func (s *Store) check(items []scanItem) {
	workers := min(8, 1+len(items)/256)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(items); i += workers {
				it := &items[i]
				fi, err := it.file.Info()
				switch {
				case errors.Is(err, fs.ErrNotExist):
					it.gone = true
				case err != nil:
					it.err = err
				default:
					it.fi = fi
					var ok bool
					it.entry, ok = readEntry(s.entryPath(it.provider, it.id))
					it.stale = !ok || !it.entry.of(fi)
				}
			}
		}()
	}
	wg.Wait()
}

// entryFromFile makes session id's entry from its file.
func (s *Store) entryFromFile(provider, id string, fi fs.FileInfo) (entryFile, error) {
	sess, err := readSession(s.path(provider, id))
	var ce *CorruptError
	switch {
	case errors.As(err, &ce):
		return entryFile{IndexEntry: IndexEntry{ID: id, Provider: provider}, FileSize: fi.Size(), FileMtime: fi.ModTime().UnixNano(), Corrupt: true}, nil
	case err != nil:
		return entryFile{}, err
	}
	return newEntry(sess.index(), fi), nil
}

func readEntry(path string) (entryFile, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return entryFile{}, false
	}
	var e entryFile
	if json.Unmarshal(b, &e) != nil || e.ID == "" {
		return entryFile{}, false
	}
	return e, true
}

// removeTemps removes the temp files a killed writer left in dir (only
// under the lock: every writer holds it).
func (s *Store) removeTemps(dir string) error {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			if err := ignoreNotExist(os.Remove(filepath.Join(dir, e.Name()))); err != nil {
				return err
			}
		}
	}
	return nil
}

// Remove deletes session id and its index entry.
func (s *Store) Remove(id string) error {
	sess, err := s.Load(id)
	if err != nil {
		return err
	}
	return s.locked(func() error {
		crashPoint("remove:locked")
		if err := ignoreNotExist(os.Remove(s.path(sess.Provider, id))); err != nil {
			return err
		}
		crashPoint("remove:session-removed")
		return ignoreNotExist(os.Remove(s.entryPath(sess.Provider, id)))
	})
}

func ignoreNotExist(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// writeAtomic writes b to path through a temp file in the same directory,
// synced before the rename when sync is set, so a reader sees the old
// file or the new one. It returns the file's info as renamed. Files are
// 0600: sessions hold what the user typed and what tools printed.
func writeAtomic(path string, b []byte, sync bool) (fs.FileInfo, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), tmpPrefix+"*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name()) // Best effort: gone after the rename.
	if _, err := tmp.Write(b); err != nil {
		_ = tmp.Close()
		return nil, err
	}
	crashPoint("write:written" + filepath.Ext(path))
	if sync {
		if err := tmp.Sync(); err != nil {
			_ = tmp.Close()
			return nil, err
		}
	}
	if err := tmp.Chmod(0o600); err != nil {
		_ = tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	fi, err := os.Lstat(tmp.Name())
	if err != nil {
		return nil, err
	}
	crashPoint("write:before-rename" + filepath.Ext(path))
	return fi, os.Rename(tmp.Name(), path)
}

package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Finding is one thing conch doctor found, and what --repair did about it.
type Finding struct {
	Path     string `json:"path"`
	Problem  string `json:"problem"`
	Repaired string `json:"repaired,omitempty"`
}

// gone is what repair says of a finding whose file is no longer there (a
// writer, or the repair itself, removed it since it was found).
const gone = "gone since it was found"

// staleAfter is how old a temporary file must be before doctor calls it
// left over: younger ones may belong to a command writing now.
const staleAfter = time.Minute

// Doctor checks the home: permissions, records that cannot be read, and
// temporary files left over by a writer that died. With repair it
// quarantines what cannot be read (into CONCH_HOME/quarantine), removes
// leftover temporary files, fixes permissions and rebuilds the index from
// the chat records. It reads the files itself, independently of the code
// that writes them.
func (h *Home) Doctor(repair bool) ([]Finding, error) {
	found := []Finding{}
	if _, err := h.FS.Stat(h.Dir); errors.Is(err, fs.ErrNotExist) {
		return found, nil
	}
	check := func() error {
		return filepath.WalkDir(h.Dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				found = append(found, Finding{Path: p, Problem: err.Error()})
				return nil
			}
			rel, _ := filepath.Rel(h.Dir, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel == "quarantine" {
					return filepath.SkipDir
				}
				if info, err := d.Info(); err == nil && info.Mode().Perm()&0o077 != 0 {
					found = append(found, Finding{Path: p, Problem: fmt.Sprintf("folder mode %o, want 0700", info.Mode().Perm())})
				}
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil
			}
			if info.Mode().Perm()&0o077 != 0 {
				found = append(found, Finding{Path: p, Problem: fmt.Sprintf("file mode %o, want 0600", info.Mode().Perm())})
			}
			base := d.Name()
			switch {
			case rel == commitMark:
				if h.Now().Sub(info.ModTime()) > staleAfter {
					found = append(found, Finding{Path: p, Problem: "a commit was cut short (a writer stopped half way): the index may not sum up the records"})
				}
			case strings.HasPrefix(base, ".") && !strings.HasSuffix(base, ".lock"):
				if h.Now().Sub(info.ModTime()) > staleAfter {
					found = append(found, Finding{Path: p, Problem: "temporary file left over by a writer that stopped"})
				}
			case strings.HasSuffix(base, ".json"):
				data, err := h.FS.ReadFile(p)
				if err != nil {
					found = append(found, Finding{Path: p, Problem: err.Error()})
				} else if !json.Valid(data) {
					found = append(found, Finding{Path: p, Problem: "record does not parse (torn or corrupt)"})
				}
			}
			return nil
		})
	}
	if err := check(); err != nil {
		return nil, err
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Path < found[j].Path })
	if !repair {
		return found, nil
	}
	err := h.Update(func(tx *Tx) error {
		for i := range found {
			f := &found[i]
			switch {
			case strings.HasPrefix(f.Problem, "folder mode"), strings.HasPrefix(f.Problem, "file mode"):
				mode := fs.FileMode(0o600)
				if strings.HasPrefix(f.Problem, "folder") {
					mode = 0o700
				}
				if err := chmod(f.Path, mode); err == nil {
					f.Repaired = fmt.Sprintf("mode set to %o", mode)
				} else if errors.Is(err, fs.ErrNotExist) {
					f.Repaired = gone
				}
			case strings.HasPrefix(f.Problem, "a commit"):
				// Update finished it before this ran: no commit mark is
				// left once the lock is had.
				f.Repaired = "finished: the index rebuilt from the records"
			case strings.HasPrefix(f.Problem, "temporary"):
				if err := h.FS.Remove(f.Path); err == nil {
					f.Repaired = "removed"
				} else if errors.Is(err, fs.ErrNotExist) {
					f.Repaired = gone
				}
			case strings.HasPrefix(f.Problem, "record"):
				rel, _ := filepath.Rel(h.Dir, f.Path)
				to := filepath.Join(h.Dir, "quarantine", strings.ReplaceAll(filepath.ToSlash(rel), "/", "_")+"."+h.Now().UTC().Format("20060102T150405"))
				if err := h.FS.MkdirAll(filepath.Dir(to)); err != nil {
					return err
				}
				if err := h.FS.Rename(f.Path, to); errors.Is(err, fs.ErrNotExist) {
					f.Repaired = gone
					continue
				} else if err != nil {
					return fmt.Errorf("quarantine %s: %w", f.Path, err)
				}
				f.Repaired = "quarantined to " + to
			}
		}
		n, err := tx.rebuildIndex()
		if err != nil {
			return err
		}
		if n >= 0 {
			found = append(found, Finding{Path: h.path("index.json"), Problem: "checked against the chat records", Repaired: fmt.Sprintf("rebuilt from %d records", n)})
		}
		return nil
	})
	return found, err
}

// rebuildIndex writes the index anew from every chat and task record that
// can be read. It returns how many it read.
func (tx *Tx) rebuildIndex() (int, error) {
	ix := &Index{Chats: map[string]*Summary{}}
	n := 0
	for _, dir := range []string{"chats", "tasks"} {
		entries, err := tx.h.FS.ReadDir(tx.h.path(dir))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, err
		}
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
				continue
			}
			c, err := tx.Chat(strings.TrimSuffix(name, ".json"))
			if err != nil {
				continue
			}
			ix.Chats[c.ID] = summarize(c)
			n++
		}
	}
	tx.index = ix
	tx.put("index.json", ix, true)
	return n, nil
}

package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
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

// journalCut is doctor's word for a commit journal left behind.
const journalCut = "the journal of a committed change that a writer stopped writing: the next command that writes finishes it"

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
			case rel == journalRel:
				if h.Now().Sub(info.ModTime()) > staleAfter {
					found = append(found, Finding{Path: p, Problem: journalCut})
				}
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
	holes, err := h.logHoles()
	if err != nil {
		return nil, err
	}
	for _, hole := range holes {
		found = append(found, hole.finding())
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Path < found[j].Path })
	if !repair {
		return found, nil
	}
	err = h.Update(func(tx *Tx) error {
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
			case f.Problem == journalCut:
				// Update rolled it forward before this ran.
				f.Repaired = "finished: its records written"
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
		// A log whose events are gone (quarantined now, or before) would
		// fail every status read: its pruned watermark moves past the hole,
		// and status reports a history gap instead.
		holes, err := h.logHoles()
		if err != nil {
			return err
		}
		for _, hole := range holes {
			head, err := tx.head(hole.chat)
			if err != nil {
				return err
			}
			head.Pruned = max(head.Pruned, hole.last)
			tx.put(headRel(hole.chat), head, true)
			f := hole.finding()
			f.Repaired = fmt.Sprintf("pruned watermark moved to %d: status reports a history gap before %d", head.Pruned, head.Pruned+1)
			if i := slices.IndexFunc(found, func(x Finding) bool { return x.Path == f.Path && strings.Contains(x.Problem, "events missing") }); i >= 0 {
				found[i] = f
			} else {
				found = append(found, f)
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

// logHole is a run of events a chat's head says its log holds that are not
// there: a torn event quarantined, or one removed by hand.
type logHole struct {
	chat, head        string
	first, last, tops int64 // the first and last missing; tops: the head's state version
	missing           int64
}

func (l logHole) finding() Finding {
	return Finding{Path: l.head, Problem: fmt.Sprintf("%d events missing (%d to %d), though the head says the log holds up to %d", l.missing, l.first, l.last, l.tops)}
}

// logHoles looks at every chat's log beside its head. It reads the folder
// listing, never the events, and never walks a range the head claims
// without the files to show for it.
func (h *Home) logHoles() ([]logHole, error) {
	chats, err := h.FS.ReadDir(h.path("log"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("read %s: %w", h.path("log"), err)
	}
	var holes []logHole
	for _, d := range chats {
		id := d.Name()
		if !d.IsDir() || !ValidID(id) {
			continue
		}
		headPath := h.path(headRel(id))
		data, err := h.FS.ReadFile(headPath)
		var head Head
		if err != nil || json.Unmarshal(data, &head) != nil || head.StateVersion <= head.Pruned {
			continue // no head, or a torn one: found as a record that does not parse
		}
		files, err := h.FS.ReadDir(h.path("log/" + id))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", h.path("log/"+id), err)
		}
		have := map[int64]bool{}
		for _, f := range files {
			name, ok := strings.CutSuffix(f.Name(), ".json")
			if n, err := strconv.ParseInt(name, 10, 64); ok && err == nil && len(name) == 12 && n > head.Pruned && n <= head.StateVersion {
				have[n] = true
			}
		}
		held := int64(len(have))
		if held == head.StateVersion-head.Pruned {
			continue
		}
		l := logHole{chat: id, head: headPath, tops: head.StateVersion, missing: head.StateVersion - head.Pruned - held}
		for l.first = head.Pruned + 1; have[l.first]; l.first++ {
		}
		for l.last = head.StateVersion; have[l.last]; l.last-- {
		}
		holes = append(holes, l)
	}
	return holes, nil
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

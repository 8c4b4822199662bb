package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/conch-sh/conch/lock"
)

// Files is a home on the local file system: each record a file under Dir
// (its key a slash-separated path), replaced whole by a rename, so readers
// take no lock.
//
// # The commit
//
// Commit writes a change all or nothing:
//
//  1. Events first. Each is a new file, written (and synced) before
//     anything else; no reader reads it until a record written at the
//     commit (its log's head) says it is there. If one cannot be
//     written, nothing is committed.
//  2. One record left to change: it is renamed into place (synced, file
//     and folder, when durable). The rename is the commit point.
//  3. Several: every record and every deletion goes into one journal,
//     Dir/commit.journal (journal.go), ended by a checksum, and, when any
//     record is durable, the journal and the home's folder are synced.
//     That is the commit point: a failed folder sync takes the journal
//     back, and a journal that cannot be taken back stands as committed.
//     Then the journal is applied (records in the order given, deletions
//     after them, each folder synced once at the end) and removed.
//
// Whatever fails before the commit point changed nothing: Commit returns
// the error. Whatever fails after it is a warning, and the next Lock
// rolls the journal forward before anything else (a torn journal, cut
// before its checksum, is dropped). Records are whole images, so applying
// a journal twice is applying it once.
type Files struct {
	Dir      string
	FS       FS
	LockWait time.Duration // 0: lock.DefaultWait
	// LiveIn are the folders (a key's first name) whose records may take
	// live writes into an overlay (live.go); nil: every folder. A record
	// elsewhere is read with no look for an overlay, and written whole.
	LiveIn []string

	// held is what the lock's holder read of the overlays it may write
	// (live.go), so that a live write needs not read again what the same
	// command read a moment before: nil while the lock is not held.
	mu   sync.Mutex
	held map[string]liveState
}

// mayOverlay says whether the record at key may have an overlay.
func (h *Files) mayOverlay(key string) bool {
	if h.LiveIn == nil {
		return true
	}
	dir, _, inside := strings.Cut(key, "/")
	return inside && slices.Contains(h.LiveIn, dir)
}

// NewFiles is the home at dir on fsys (nil: the real file system).
func NewFiles(dir string, fsys FS, lockWait time.Duration) *Files {
	if fsys == nil {
		fsys = OSFS{}
	}
	if lockWait == 0 {
		lockWait = lock.DefaultWait
	}
	return &Files{Dir: dir, FS: fsys, LockWait: lockWait}
}

func (h *Files) path(key string) string { return filepath.Join(h.Dir, filepath.FromSlash(key)) }

// Where is the record's file.
func (h *Files) Where(key string) string { return h.path(key) }

// Get reads the record's file, and its overlay's newest live state over
// it (live.go).
func (h *Files) Get(key string) ([]byte, error) {
	p := h.path(key)
	base, err := h.FS.ReadFile(p)
	if err != nil || !h.mayOverlay(key) {
		return base, err
	}
	return h.overlaid(p, base)
}

// List lists a folder, leaving out what is not conch's: a killed writer's
// temporary file (.c_1.json123) and anything else whose name starts with a
// dot.
func (h *Files) List(dir string) ([]string, error) {
	entries, err := h.FS.ReadDir(h.path(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		if e.IsDir() {
			name += "/"
		}
		names = append(names, name)
	}
	return names, nil
}

// Exists says whether Dir is there.
func (h *Files) Exists() (bool, error) {
	_, err := h.FS.Stat(h.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("home %s: %w", h.Dir, err)
	}
	return true, nil
}

// Lock makes the home if it is not there (only then: a step in one that
// is asks the disk nothing more), takes Dir/conch.lock and rolls forward
// a journal a commit cut short left.
func (h *Files) Lock(wait time.Duration) (func(), error) {
	if wait == 0 {
		wait = h.LockWait
	}
	there, err := h.Exists()
	if err != nil {
		return nil, err
	}
	if !there {
		if err := h.FS.MkdirAll(h.Dir); err != nil {
			return nil, fmt.Errorf("home %s: %w", h.Dir, err)
		}
	}
	unlock, err := lock.Exclusive(context.Background(), h.path("conch.lock"), wait)
	if err != nil {
		return nil, err
	}
	if err := h.rollForward(); err != nil {
		unlock()
		return nil, err
	}
	h.mu.Lock()
	h.held = map[string]liveState{}
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		h.held = nil
		h.mu.Unlock()
		unlock()
	}, nil
}

// oldMark is what conch before the journal wrote before a commit of
// several records: a home one of those left, cut short, needs its derived
// records (the index) rebuilt from the others.
const oldMark = OldMarkName

// OldMarkName is the older conch's commit mark, for conch doctor.
const OldMarkName = "commit.pending"

// OldMark says whether an older conch's commit was cut short here.
func (h *Files) OldMark() (bool, error) {
	p := h.path(oldMark)
	_, err := h.FS.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("stat %s: %w", p, err)
	}
	return true, nil
}

// ClearOldMark removes the older conch's mark, once what it left is mended.
func (h *Files) ClearOldMark() error {
	p := h.path(oldMark)
	if err := h.FS.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	return nil
}

// Commit writes ws all or nothing (see the type's comment).
func (h *Files) Commit(ws []Write) ([]string, error) {
	var warnings []string
	warn := func(format string, args ...any) { warnings = append(warnings, fmt.Sprintf(format, args...)) }
	j := &journal{entries: make([]journalEntry, 0, len(ws))}
	events := &journal{}
	var gone []journalEntry
	for _, w := range ws {
		if w.Delete {
			// A deletion is as durable as the change it is part of: a
			// record that came back after a power cut would be a change
			// undone.
			gone = append(gone, journalEntry{rel: w.Key, remove: true})
			continue
		}
		e := journalEntry{rel: w.Key, data: w.Data, durable: w.Class != Live}
		into := j
		if w.Class == Event {
			into = events
		}
		into.entries = append(into.entries, e)
		into.durable = into.durable || e.durable
	}
	if err := h.writeEvents(events); err != nil {
		return nil, err
	}
	if len(gone) > 0 {
		j.entries = append(j.entries, gone...)
		j.durable = true
	}
	var err error
	switch len(j.entries) {
	case 0:
		return nil, nil
	case 1:
		err = h.commitOne(j, warn)
	default:
		err = h.commitJournal(j, warn)
	}
	if err != nil {
		h.dropEvents(events.entries)
		return nil, err
	}
	return warnings, nil
}

// dropEvents removes the events a commit that failed before its commit
// point wrote, so that the failed command leaves nothing behind. Where it
// cannot (or the writer is killed first) they stay, unnamed, where no
// reader reads them; the next event of their log is written over them.
func (h *Files) dropEvents(events []journalEntry) {
	for _, e := range events {
		_ = h.FS.Remove(h.path(e.rel))
	}
}

// writeEvents writes a commit's events before its commit point.
func (h *Files) writeEvents(events *journal) error {
	if len(events.entries) == 0 {
		return nil
	}
	dirs := map[string]bool{}
	for i, e := range events.entries {
		p := h.path(e.rel)
		if err := h.FS.WriteFile(p, e.data, e.durable); err != nil {
			h.dropEvents(events.entries[:i])
			return fmt.Errorf("write %s: %w", p, err)
		}
		dirs[path.Dir(e.rel)] = true
	}
	if !events.durable {
		return nil
	}
	if err := h.syncDirs(dirs); err != nil {
		h.dropEvents(events.entries)
		return err
	}
	return nil
}

// commitOne commits a change of one record with no journal: its rename
// (or removal) is the commit point.
func (h *Files) commitOne(j *journal, warn func(string, ...any)) error {
	e := j.entries[0]
	if !j.durable && !e.remove && h.mayOverlay(e.rel) {
		// Live state: in the record's overlay, one pwrite; else one
		// rename, no sync.
		p := h.path(e.rel)
		if ok, err := h.writeLive(p, e.data); ok || err != nil {
			if err != nil {
				return fmt.Errorf("write %s: %w", p, err)
			}
			return nil
		}
	}
	if err := h.applyEntry(e); err != nil {
		return err
	}
	if !j.durable {
		return nil
	}
	dir := filepath.Dir(h.path(e.rel))
	if err := h.FS.SyncDir(dir); err != nil {
		warn("the change is written, but it may not survive a power cut: sync %s: %v", dir, err)
	}
	return nil
}

// Drop removes the record's file and does nothing else: no overlay, no
// journal, no sync. It is the one system call a process's last act may be
// (state's receipts: one the next command reads, not a record a reader
// depends on); a record that is not there is dropped already.
func (h *Files) Drop(key string) error {
	p := h.path(key)
	if err := h.FS.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	return nil
}

package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/conch-sh/conch/lock"
)

// The redo journal. A commit of more than one record first writes every
// new record and every removal of the transaction into one file,
// CONCH_HOME/commit.journal, ended by a checksum, and (when any record is
// durable) syncs it and the home's folder: that is the commit point. Then
// it applies the journal (each record replaced whole, in the commit's
// order, removals last; each folder it wrote in synced once at the end)
// and removes it. A command that finds a journal when it takes the lock
// applies it again before anything else: the records are whole images, so
// applying twice is applying once. A journal that does not end in its
// checksum was cut short before the commit point, and is dropped.

// journalRel is the journal's file.
const journalRel = JournalName

// JournalName is the commit journal's file, for conch doctor.
const JournalName = "commit.journal"

// journalHead opens a journal; each entry is then a line "write D N REL"
// (D 1 for a durable record, N its length) followed by the N bytes of the
// record and a newline, or "remove REL"; the last line, "end COUNT CRC",
// counts the entries and sums (CRC-32) every byte before it.
const journalHead = "conch journal 1\n"

// journal is the change a commit writes.
type journal struct {
	entries []journalEntry
	durable bool // some record is durable: the journal and folders are synced
}

type journalEntry struct {
	rel     string
	data    []byte // the record as written; nil for a removal
	remove  bool
	durable bool
}

func (j *journal) encode() []byte {
	n := len(journalHead) + 32
	for _, e := range j.entries {
		n += len(e.rel) + len(e.data) + 32
	}
	b := bytes.NewBuffer(make([]byte, 0, n))
	b.WriteString(journalHead)
	for _, e := range j.entries {
		if e.remove {
			b.WriteString("remove " + e.rel + "\n")
			continue
		}
		d := "0"
		if e.durable {
			d = "1"
		}
		b.WriteString("write " + d + " " + strconv.Itoa(len(e.data)) + " " + e.rel + "\n")
		b.Write(e.data)
		b.WriteByte('\n')
	}
	sum := checksumIEEE(b.Bytes())
	fmt.Fprintf(b, "end %d %08x\n", len(j.entries), sum)
	return b.Bytes()
}

// errTorn is a journal that does not end in its checksum: nothing was
// committed.
var errTorn = errors.New("the journal is torn")

// decodeJournal reads a journal; errTorn (wrapped) when it is not whole.
func decodeJournal(data []byte) (*journal, error) {
	torn := func(why string) (*journal, error) { return nil, fmt.Errorf("%w: %s", errTorn, why) }
	if !bytes.HasPrefix(data, []byte(journalHead)) {
		return torn("no header")
	}
	j := &journal{}
	rest := data[len(journalHead):]
	for {
		line, after, ok := bytes.Cut(rest, []byte("\n"))
		if !ok {
			return torn("no end line")
		}
		fields := strings.Fields(string(line))
		switch {
		case len(fields) == 3 && fields[0] == "end":
			count, err := strconv.Atoi(fields[1])
			if err != nil || count != len(j.entries) {
				return torn("the count does not match")
			}
			body := data[:len(data)-len(rest)]
			if fmt.Sprintf("%08x", checksumIEEE(body)) != fields[2] {
				return torn("the checksum does not match")
			}
			if len(after) != 0 {
				return torn("bytes after the end line")
			}
			return j, nil
		case len(fields) == 2 && fields[0] == "remove":
			if !journalPath(fields[1]) {
				return torn("a path that is not the home's")
			}
			j.entries = append(j.entries, journalEntry{rel: fields[1], remove: true})
			rest = after
		case len(fields) == 4 && fields[0] == "write" && (fields[1] == "0" || fields[1] == "1"):
			n, err := strconv.Atoi(fields[2])
			if err != nil || n < 0 || n+1 > len(after) || after[n] != '\n' || !journalPath(fields[3]) {
				return torn("a record cut short")
			}
			e := journalEntry{rel: fields[3], data: after[:n:n], durable: fields[1] == "1"}
			j.durable = j.durable || e.durable
			j.entries = append(j.entries, e)
			rest = after[n+1:]
		default:
			return torn("a line that is not an entry")
		}
	}
}

// journalPath says whether rel is a path inside the home, as commits name
// them.
func journalPath(rel string) bool {
	return rel != "" && rel != "." && !strings.HasPrefix(rel, "/") && path.Clean(rel) == rel &&
		rel != ".." && !strings.HasPrefix(rel, "../")
}

// apply writes the journal's records and removals, in order, stopping at
// the first that fails, then syncs each folder it touched once. (A folder
// a write makes is synced into its parent as it is made: see
// OSFS.WriteFile.)
func (h *Files) apply(j *journal) error {
	_, err := h.applyCounted(j)
	return err
}

// applyCounted is apply, saying how many records it changed (before the
// one that failed).
func (h *Files) applyCounted(j *journal) (int, error) {
	dirs := map[string]bool{}
	for i, e := range j.entries {
		if err := h.applyEntry(e); err != nil {
			return i, err
		}
		dirs[path.Dir(e.rel)] = true
	}
	if !j.durable {
		return len(j.entries), nil
	}
	return len(j.entries), h.syncDirs(dirs)
}

// applyEntry writes one record, or removes it (gone already is removed).
func (h *Files) applyEntry(e journalEntry) error {
	p := h.path(e.rel)
	h.forget(p)
	if e.remove {
		if err := h.FS.RemoveAll(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p, err)
		}
		// The record's overlay goes with it; one left behind stands over
		// nothing, and doctor takes it away.
		_ = h.FS.Remove(livePath(p))
	} else if err := h.FS.WriteFile(p, e.data, e.durable); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// syncDirs syncs the folders (relative to the home), deepest first.
func (h *Files) syncDirs(dirs map[string]bool) error {
	list := make([]string, 0, len(dirs))
	for d := range dirs {
		list = append(list, d)
	}
	sort.Slice(list, func(a, b int) bool {
		if na, nb := depth(list[a]), depth(list[b]); na != nb {
			return na > nb
		}
		return list[a] < list[b]
	})
	for _, d := range list {
		p := filepath.Join(h.Dir, filepath.FromSlash(d))
		if err := h.FS.SyncDir(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("sync %s: %w", p, err)
		}
	}
	return nil
}

// depth is how deep a folder relative to the home is: the home 0.
func depth(d string) int {
	if d == "." {
		return 0
	}
	return strings.Count(d, "/") + 1
}

// rollForward finishes a commit that was cut short after its commit point:
// the journal is applied again and removed. A torn journal (cut short
// before its commit point) is removed unapplied. It runs under the lock,
// before the command's own work; an error fails the command.
func (h *Files) rollForward() error {
	jp := h.path(journalRel)
	data, err := h.FS.ReadFile(jp)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", jp, err)
	}
	j, err := decodeJournal(data)
	if err != nil && !errors.Is(err, errTorn) {
		return err
	}
	if j != nil {
		if err := h.apply(j); err != nil {
			return fmt.Errorf("finishing the commit %s holds: %w", jp, err)
		}
	}
	if err := h.FS.Remove(jp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", jp, err)
	}
	if j != nil && j.durable {
		if err := h.FS.SyncDir(h.Dir); err != nil {
			return fmt.Errorf("sync %s: %w", h.Dir, err)
		}
	}
	return nil
}

// commitJournal commits j through the journal: written (and synced, when
// durable) to the commit point, then applied and removed. An error means
// nothing was committed. What fails after the commit point is a warning on
// tx: the change is committed, and the next command finishes writing it.
func (h *Files) commitJournal(j *journal, warn func(string, ...any)) error {
	jp := h.path(journalRel)
	if err := h.FS.WriteFile(jp, j.encode(), j.durable); err != nil {
		return fmt.Errorf("write %s: %w", jp, err)
	}
	if j.durable {
		if err := h.FS.SyncDir(h.Dir); err != nil {
			// Short of the commit point: take the journal back, and
			// nothing is changed. If it cannot be taken back it stands,
			// and the change is committed after all.
			rerr := h.FS.Remove(jp)
			if rerr == nil || errors.Is(rerr, fs.ErrNotExist) {
				return fmt.Errorf("sync %s: %w", h.Dir, err)
			}
			warn("the commit journal %s could not be synced (%v) nor taken back (%v): the change stands", jp, err, rerr)
		}
	}
	// Committed. A write that fails once is tried again at once: the
	// records are whole images, so writing one twice is writing it once.
	done, err := h.applyCounted(j)
	if err != nil {
		done, err = h.applyCounted(j)
	}
	if err != nil && done == 0 && h.takeBack(jp, j) {
		// Not one record changed (a full disk, one out of inodes, fails
		// the first): the journal is taken back, and the command fails
		// having changed nothing, before it answers (issue 29).
		return err
	}
	if err != nil {
		warn("the change is committed, but %v: the next conch command finishes writing it", err)
		return nil
	}
	// A removal that fails once is tried again at once too: a journal
	// left behind is applied again by the next command, and a record its
	// writer took away since (a receipt of marks, state's receipts.go)
	// would come back.
	err = h.FS.Remove(jp)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		err = h.FS.Remove(jp)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		warn("the change is written, but its journal %s could not be removed (%v): the next conch command removes it", jp, err)
		return nil
	}
	if j.durable {
		if err := h.FS.SyncDir(h.Dir); err != nil {
			warn("the change is written, but the removal of its journal could not be synced: sync %s: %v", h.Dir, err)
		}
	}
	return nil
}

// takeBack removes a journal none of whose records was written: the
// commit is undone. It says whether it could (the removal synced, when
// the journal was): else the journal stands, committed.
func (h *Files) takeBack(jp string, j *journal) bool {
	if err := h.FS.Remove(jp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return !j.durable || h.FS.SyncDir(h.Dir) == nil
}

// ErrTorn is a journal cut short or changed: nothing of it was committed.
var ErrTorn = errTorn

// EncodeJournal is the journal a commit of ws writes (records durable
// unless Live), for conch doctor and the tests that leave one behind.
func EncodeJournal(ws []Write) []byte {
	j := &journal{}
	for _, w := range ws {
		e := journalEntry{rel: w.Key, data: w.Data, remove: w.Delete, durable: w.Delete || w.Class != Live}
		j.entries = append(j.entries, e)
		j.durable = j.durable || e.durable
	}
	return j.encode()
}

// DecodeJournal reads a journal back (ErrTorn when it is torn).
func DecodeJournal(data []byte) ([]Write, error) {
	j, err := decodeJournal(data)
	if err != nil {
		return nil, err
	}
	ws := make([]Write, 0, len(j.entries))
	for _, e := range j.entries {
		w := Write{Key: e.rel, Data: e.data, Delete: e.remove}
		if e.durable && !e.remove {
			w.Class = Durable
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// checksumIEEE is the CRC-32 (IEEE) of b, as hash/crc32's ChecksumIEEE: the
// journal's checksum. Its table is built on the first journal a command
// writes or reads, not at start-up, where hash/crc32 builds its own in
// every command, journal or none.
func checksumIEEE(b []byte) uint32 {
	crcOnce.Do(func() {
		for i := range crcTable {
			c := uint32(i)
			for range 8 {
				if c&1 == 1 {
					c = c>>1 ^ 0xedb88320
				} else {
					c >>= 1
				}
			}
			crcTable[i] = c
		}
	})
	crc := ^uint32(0)
	for _, c := range b {
		crc = crcTable[byte(crc)^c] ^ crc>>8
	}
	return ^crc
}

var (
	crcOnce  sync.Once
	crcTable [256]uint32
)

// CutShort says whether a commit journal stands that no writer holds: a
// commit cut short after its commit point (its writer killed, or the disk
// full under it), which the next command that takes the lock finishes.
// It costs one stat when there is none; with one, it takes the lock for a
// moment, without waiting (a writer holding it is finishing its own journal now).
func (h *Files) CutShort() (bool, error) {
	jp := h.path(journalRel)
	if _, err := h.FS.Stat(jp); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("stat %s: %w", jp, err)
	}
	unlock, err := lock.Exclusive(context.Background(), h.path("conch.lock"), time.Nanosecond) // a try: no wait
	if err != nil {
		return false, nil // held: its writer is finishing it
	}
	defer unlock()
	_, err = h.FS.Stat(jp)
	return err == nil, nil
}

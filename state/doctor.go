package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/conch-sh/conch/state/store"
)

// Finding is one thing conch doctor found, and what --repair did about it.
// Repair goes by its Kind, never by the words of its Problem.
type Finding struct {
	Path     string      `json:"path"`
	Problem  string      `json:"problem"`
	Repaired string      `json:"repaired,omitempty"`
	Kind     findingKind `json:"-"`

	rel string // the path inside the home
}

// findingKind is what a finding is, and so what --repair does about it.
type findingKind int

// The kinds of finding.
const (
	findingOpen       findingKind = iota // nothing repair can do: said, and left open
	findingFolderMode                    // a folder's mode: set to 0700, without the lock
	findingFileMode                      // a file's mode: set to 0600, without the lock
	findingMisplaced                     // it stands where something else belongs: moved aside, without the lock
	findingBadRecord                     // a record that cannot be used: quarantined, under the lock
	findingTemp                          // a temporary file left over: removed
	findingCutCommit                     // a commit cut short: finished by taking the lock
	findingJournal                       // a commit journal left behind: rolled forward by taking the lock
	findingCounters                      // counters behind the records: rebuilt
	findingLogHole                       // events missing from a log: its pruned watermark moved past them
	findingIndex                         // the index, rebuilt from the chat records (said by repair)
)

// gone is what repair says of a finding whose file is no longer there (a
// writer, or the repair itself, removed it since it was found).
const gone = "gone since it was found"

// Doctor checks the home: permissions and what this user can open, the
// shape of every record (a JSON object of the right kind, under its own
// id, a file where a file belongs and a folder where a folder belongs),
// the counters against the ids in use, and temporary files left over by
// a writer that died. With repair it sets the modes and moves aside what
// stands where something else belongs (before it takes the lock, which
// either can keep it from taking), then, under the lock, quarantines the
// records that cannot be used (into CONCH_HOME/quarantine), removes
// leftover temporary files, and rebuilds the index and the counters from
// the records: a home every command can use. It reads the files itself,
// independently of the code that writes them, and through a CONCH_HOME
// that is a symbolic link it checks the folder behind it.
func (h *Home) Doctor(repair bool) ([]Finding, error) {
	files, ok := h.store.(store.Mender)
	if !ok {
		return nil, fmt.Errorf("conch doctor checks a home on files; this one is in %s", h.where(""))
	}
	d := &doctor{h: h, files: files}
	found, err := d.check()
	if errors.Is(err, store.ErrNotFound) {
		return []Finding{}, nil
	}
	if err != nil || !repair {
		return found, err
	}
	// Modes and misplaced things first, without the lock: a lock file
	// of mode 000, a home of 500, or an index.json that is a folder would
	// fail the repair itself.
	var done []Finding
	for i := range found {
		if f := &found[i]; f.Kind.unlocked() {
			d.fixUnlocked(f)
			done = append(done, *f)
		}
	}
	again := found
	if len(done) > 0 {
		if again, err = d.check(); err != nil {
			return nil, err
		}
		again = slices.DeleteFunc(again, func(f Finding) bool { return f.Kind.unlocked() })
	}
	err = h.Update(func(tx *Tx) error { return d.fixLocked(tx, &again) })
	found = append(done, again...)
	sort.SliceStable(found, func(i, j int) bool { return found[i].Path < found[j].Path })
	return found, err
}

// unlocked says whether repair mends a finding of kind k before it takes
// the lock.
func (k findingKind) unlocked() bool {
	return k == findingFolderMode || k == findingFileMode || k == findingMisplaced
}

type doctor struct {
	h     *Home
	files store.Mender
}

func (d *doctor) add(found *[]Finding, rel string, kind findingKind, format string, args ...any) {
	*found = append(*found, Finding{Path: d.h.where(rel), Problem: fmt.Sprintf(format, args...), Kind: kind, rel: rel})
}

// damageKind is the finding a file's damage is.
var damageKind = map[store.Damage]findingKind{
	store.DamageOpen:       findingOpen,
	store.DamageFolderMode: findingFolderMode,
	store.DamageFileMode:   findingFileMode,
	store.DamageMisplaced:  findingMisplaced,
	store.DamageOldMark:    findingCutCommit,
	store.DamageJournal:    findingJournal,
	store.DamageTemp:       findingTemp,
}

// expect is doctor's map of the home, as the store's walk asks it.
func expect(key string) store.Expect {
	want := shapeOf(key)
	return store.Expect{Folder: want.kind == shapeFolder, File: want.kind == shapeFile || want.kind == shapeRecord, Noun: article(want.noun())}
}

// check looks at the home once and says what is wrong: its files, as the
// store finds them, then every record read as the commands read it.
func (d *doctor) check() ([]Finding, error) {
	h := d.h
	in, err := d.files.Inspect(h.Now(), expect)
	if err != nil {
		return nil, err
	}
	found := []Finding{}
	for _, dm := range in.Damaged {
		d.add(&found, dm.Key, damageKind[dm.Damage], "%s", dm.Problem)
	}
	for _, rel := range in.Records {
		if problem, bad := d.checkRecord(rel, shapeOf(rel)); problem != "" {
			kind := findingBadRecord
			if !bad {
				kind = findingOpen // it could not be read: said, never quarantined
			}
			d.add(&found, rel, kind, "%s", problem)
		}
	}
	holes, err := h.logHoles()
	if err != nil {
		return nil, err
	}
	for _, hole := range holes {
		found = append(found, hole.finding())
	}
	behind, err := d.countersBehind()
	if err != nil {
		return nil, err
	}
	found = append(found, behind...)
	sort.SliceStable(found, func(i, j int) bool { return found[i].Path < found[j].Path })
	return found, nil
}

// checkRecord reads one record as the commands read it: "" when it can
// be used, else what is wrong, and whether the record itself is (bad: to
// quarantine) or only the reading failed (the disk, a mode: never a reason
// to move a record aside).
func (d *doctor) checkRecord(rel string, want shape) (problem string, bad bool) {
	data, err := d.h.store.Get(rel)
	switch {
	case errors.Is(err, store.ErrTooLarge):
		return "record " + store.ErrTooLarge.Error(), true
	case err != nil:
		return err.Error(), false
	case !json.Valid(data):
		return "record does not parse (torn or corrupt)", true
	}
	switch t := bytes.TrimLeft(data, " \t\r\n"); {
	case t[0] != '{':
		var v any
		_ = json.Unmarshal(t, &v)
		return fmt.Sprintf("record is not a JSON object: it holds %s", jsonKind(v)), true
	case want.read == nil:
		return "", false
	}
	if err := want.read(newView(d.h), want.name); err != nil {
		var ce *CorruptError
		if !errors.As(err, &ce) {
			return err.Error(), false
		}
		if ce.Path != d.h.where(rel) {
			// What this computer keeps of the record beside it (its
			// commands) is what is wrong: the record itself is whole, and
			// is never moved aside for it.
			return fmt.Sprintf("%s, kept beside it, cannot be used: %v", ce.Path, ce.Err), false
		}
		return fmt.Sprintf("record is not %s conch can use: %v", article(want.noun()), ce.Err), true
	}
	return "", false
}

func article(noun string) string {
	if strings.IndexByte("aeiou", noun[0]) >= 0 {
		return "an " + noun
	}
	return "a " + noun
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "something else"
}

// countersBehind compares counters.json with the ids the records use.
func (d *doctor) countersBehind() ([]Finding, error) {
	tx := newView(d.h)
	c, err := load[counters](tx, "counters.json")
	if err != nil || c == nil {
		return nil, nil // torn: found as a record; none: rebuilt by the next command
	}
	// Only the records' own names: a log, a watch or a message may name
	// an id whose record was never committed (a command killed before its
	// commit point leaves its event), which the counters need not pass.
	used := counters{}
	for _, k := range idKinds {
		names, err := d.h.store.List(k.dir)
		if err != nil {
			continue // none, or found by the walk
		}
		for _, name := range names {
			if id, ok := strings.CutSuffix(name, ".json"); ok {
				used[k.prefix] = max(used[k.prefix], serialOf(id, k.prefix))
			}
		}
	}
	var found []Finding
	for _, k := range idKinds {
		if used[k.prefix] > (*c)[k.prefix] {
			d.add(&found, "counters.json", findingCounters, "counter %q is %d, though %s_%d is in use", k.prefix, (*c)[k.prefix], k.prefix, used[k.prefix])
		}
	}
	return found, nil
}

// fixUnlocked sets a mode, or moves aside what stands where something else
// belongs.
func (d *doctor) fixUnlocked(f *Finding) {
	if f.Kind == findingFolderMode || f.Kind == findingFileMode {
		if mode, err := d.files.SetMode(f.rel, f.Kind == findingFolderMode); err == nil {
			f.Repaired = fmt.Sprintf("mode set to %o", mode)
		} else if errors.Is(err, fs.ErrNotExist) {
			f.Repaired = gone
		}
		return
	}
	if to, err := d.files.Quarantine(f.rel, d.h.Now()); err == nil {
		f.Repaired = "moved to " + to
	} else if errors.Is(err, fs.ErrNotExist) {
		f.Repaired = gone
	}
}

// fixLocked does, under the lock, what needs it.
func (d *doctor) fixLocked(tx *Tx, all *[]Finding) error {
	h := d.h
	found := *all
	defer func() { *all = found }()
	var salvaged counters
	rebuildCounters := false
	for i := range found {
		f := &found[i]
		switch f.Kind {
		case findingCutCommit:
			// Update finished it before this ran: no commit mark or
			// journal is left once the lock is had.
			f.Repaired = "finished: the index rebuilt from the records"
		case findingJournal:
			f.Repaired = "finished: its records written" // the Update rolled it forward
		case findingTemp:
			if err := d.files.RemoveLeftover(f.rel); err == nil {
				f.Repaired = "removed"
			} else if errors.Is(err, fs.ErrNotExist) {
				f.Repaired = gone
			}
		case findingCounters:
			rebuildCounters = true
			f.Repaired = "rebuilt from the records"
		case findingBadRecord:
			// Under the lock, once more: a writer may have replaced it
			// since, and only a record read and found bad is moved.
			if problem, bad := d.checkRecord(f.rel, shapeOf(f.rel)); !bad {
				if problem == "" {
					f.Repaired = "whole now: left as it is"
				}
				continue
			}
			if f.rel == "counters.json" {
				// What can still be read of it counts too: a chat deleted
				// since is named by no record.
				data, _ := d.h.store.Get(f.rel)
				salvaged = salvageCounters(data)
				rebuildCounters = true
			}
			to, err := d.files.Quarantine(f.rel, d.h.Now())
			if errors.Is(err, fs.ErrNotExist) {
				f.Repaired = gone
				continue
			} else if err != nil {
				return fmt.Errorf("quarantine %s: %w", f.Path, err)
			}
			tx.forget(f.rel)
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
		head, err := tx.Log().head(hole.chat)
		if err != nil {
			return err
		}
		head.Pruned = max(head.Pruned, hole.last)
		tx.put(headRel(hole.chat), head, true)
		f := hole.finding()
		f.Repaired = fmt.Sprintf("pruned watermark moved to %d: status reports a history gap before %d", head.Pruned, head.Pruned+1)
		if i := slices.IndexFunc(found, func(x Finding) bool { return x.Path == f.Path && x.Kind == findingLogHole }); i >= 0 {
			found[i] = f
		} else {
			found = append(found, f)
		}
	}
	n, err := tx.Chats().rebuildIndex()
	if err != nil {
		return err
	}
	if n >= 0 {
		found = append(found, Finding{Path: h.where("index.json"), Problem: "checked against the chat records", Repaired: fmt.Sprintf("rebuilt from %d records", n), Kind: findingIndex})
	}
	if rebuildCounters {
		c, err := load[counters](tx, "counters.json")
		if err != nil || c == nil {
			c = &counters{}
		}
		used, err := tx.usedIDs()
		if err != nil {
			return err
		}
		for k, v := range salvaged {
			(*c)[k] = max((*c)[k], v)
		}
		for k, v := range used {
			(*c)[k] = max((*c)[k], v)
		}
		tx.put("counters.json", c, true)
		found = append(found, Finding{Path: h.where("counters.json"), Problem: "checked against the ids in use", Repaired: "rebuilt from the records", Kind: findingCounters})
	}
	return nil
}

// salvageCounters reads what it can of a torn counters.json: each
// "kind": N whole before the tear.
func salvageCounters(data []byte) counters {
	c := counters{}
	s := string(data)
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			return c
		}
		s = s[i+1:]
		j := strings.IndexByte(s, '"')
		if j < 0 {
			return c
		}
		k, rest := s[:j], strings.TrimLeft(s[j+1:], " \t\r\n")
		s = s[j+1:]
		rest, ok := strings.CutPrefix(rest, ":")
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " \t\r\n")
		n := 0
		digits := 0
		for digits < len(rest) && digits < 10 && rest[digits] >= '0' && rest[digits] <= '9' {
			n = n*10 + int(rest[digits]-'0')
			digits++
		}
		// A number cut by the tear may have lost digits: only one that is
		// followed by what comes after a number is whole.
		if digits > 0 && digits < len(rest) && strings.IndexByte(",} \t\r\n", rest[digits]) >= 0 && n < 1e9 {
			c[k] = max(c[k], n)
		}
	}
}

// logHole is a run of events a chat's head says its log holds that are not
// there: a torn event quarantined, or one removed by hand.
type logHole struct {
	chat, head        string
	first, last, tops int64 // the first and last missing; tops: the head's state version
	missing           int64
}

func (l logHole) finding() Finding {
	return Finding{Path: l.head, Problem: fmt.Sprintf("%d events missing (%d to %d), though the head says the log holds up to %d", l.missing, l.first, l.last, l.tops), Kind: findingLogHole}
}

// logHoles looks at every chat's log beside its head. It reads the folder
// listing, never the events, and never walks a range the head claims
// without the files to show for it.
func (h *Home) logHoles() ([]logHole, error) {
	chats, err := h.store.List("log")
	if errors.Is(err, store.ErrNotDir) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("read %s: %w", h.where("log"), err)
	}
	var holes []logHole
	for _, name := range chats {
		id, dir := strings.CutSuffix(name, "/")
		if !dir || !ValidID(id) {
			continue
		}
		headPath := h.where(headRel(id))
		data, err := h.store.Get(headRel(id))
		var head head
		if err != nil || json.Unmarshal(data, &head) != nil || head.StateVersion <= head.Pruned {
			continue // no head, or a torn one: found as a record that does not parse
		}
		files, err := h.store.List("log/" + id)
		if err != nil {
			continue // found by the walk, which cannot read it either
		}
		have := map[int64]bool{}
		for _, f := range files {
			name, ok := strings.CutSuffix(f, ".json")
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
func (dom ChatsTx) rebuildIndex() (int, error) {
	tx := dom.tx
	ix := &Index{Chats: map[string]*Summary{}}
	var old *Index // the index as it was, read when needed
	n := 0
	for _, dir := range []string{"chats", "tasks"} {
		names, err := tx.h.store.List(dir)
		if err != nil {
			return 0, err
		}
		for _, name := range names {
			if !strings.HasSuffix(name, ".json") {
				continue
			}
			c, err := tx.Chats().Get(strings.TrimSuffix(name, ".json"))
			var ce *CorruptError
			if errors.As(err, &ce) || errors.Is(err, ErrNoChat) {
				continue // doctor's to find: the index sums up what can be read
			} else if err != nil {
				// The disk or a mode, not the record: the chat is there,
				// and keeps the summary it had, if it had one.
				id := strings.TrimSuffix(name, ".json")
				if old == nil {
					if old, _ = tx.Chats().readIndexFile(); old == nil {
						old = &Index{}
					}
				}
				if s := old.Chats[id]; s != nil && s.ID == id {
					ix.Chats[id] = s
					continue
				}
				return 0, err
			}
			ix.Chats[c.ID] = summarize(c)
			n++
		}
	}
	tx.index = ix
	tx.put("index.json", ix, true)
	return n, nil
}

package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// fastFS skips the syncs, to build large homes quickly in tests.
type fastFS struct{ store.OSFS }

func (f fastFS) WriteFile(name string, data []byte, durable bool) error {
	return f.OSFS.WriteFile(name, data, false)
}

func (fastFS) SyncDir(name string) error { return nil }

// faultyFS fails every write whose path fail says so.
type faultyFS struct {
	store.OSFS
	fail func(name string) bool
}

func (f faultyFS) WriteFile(name string, data []byte, durable bool) error {
	if f.fail != nil && f.fail(name) {
		return errors.New("disk full")
	}
	return f.OSFS.WriteFile(name, data, durable)
}

// logHome is a home in a temporary folder whose clock is *now.
func logHome(t testing.TB, fsys store.FS, now *time.Time) *Home {
	t.Helper()
	o := Options{Dir: filepath.Join(t.TempDir(), "home"), Now: func() time.Time { return *now }, Wall: func() time.Time { return *now }, Hostname: "test", FS: fsys}
	if fsys == nil {
		o.Store = store.NewMem() // the domain alone, in memory
	}
	h, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func mustUpdate(t testing.TB, h *Home, fn func(tx *Tx) error) {
	t.Helper()
	if err := h.Update(fn); err != nil {
		t.Fatal(err)
	}
}

func newChats(t testing.TB, h *Home, n int) []string {
	t.Helper()
	var ids []string
	mustUpdate(t, h, func(tx *Tx) error {
		ids = nil // fn runs twice in a home not made yet
		for i := 0; i < n; i++ {
			c, err := tx.Chats().Create(Actor{}, NewChat{Title: fmt.Sprintf("Chat %d", i+1), Folder: "/tmp"})
			if err != nil {
				return err
			}
			ids = append(ids, c.ID)
		}
		return nil
	})
	return ids
}

// recordN appends n log-only events to chat id, in one transaction.
func recordN(t testing.TB, h *Home, id string, n int) {
	t.Helper()
	mustUpdate(t, h, func(tx *Tx) error {
		c, err := tx.Chats().Get(id)
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			tx.Log().Record(c, KindCompacted, ActorSystem, "", "history compacted", "")
		}
		if w := tx.Warnings(); len(w) > 0 {
			return fmt.Errorf("warnings: %v", w)
		}
		return nil
	})
}

func headOf(t testing.TB, h *Home, id string) head {
	t.Helper()
	var hd *head
	if err := h.View(func(tx *View) (err error) { hd, err = tx.Log().head(id); return err }); err != nil {
		t.Fatal(err)
	}
	return *hd
}

func TestCursorFrozenWatermark(t *testing.T) {
	c := &cursor{LastSeen: 1, Notified: 1, Material: 1}
	// Three notifying events: one notice, opened at the first.
	if !c.land(2) {
		t.Fatal("the first event opens no notice")
	}
	if c.land(3) || c.land(4) {
		t.Fatal("a second notice opened while one was pending")
	}
	if *c != (cursor{LastSeen: 1, Notified: 2, Material: 4}) {
		t.Fatalf("cursor %+v, want last_seen 1, notified 2 (frozen), material 4", *c)
	}
	// Drain: exactly one fresh notice for the rest, then none.
	if !c.drain() || c.LastSeen != 2 || c.Notified != 4 {
		t.Fatalf("after the first drain %+v, want last_seen 2, notified 4", *c)
	}
	if c.drain() || c.pending() || c.LastSeen != 4 {
		t.Fatalf("after the second drain %+v, want nothing pending at 4", *c)
	}
}

func TestCursorOwnEvents(t *testing.T) {
	c := &cursor{LastSeen: 3, Notified: 3, Material: 3}
	c.own(4)
	if c.pending() || c.LastSeen != 4 {
		t.Fatalf("own event with nothing pending: %+v, want all at 4", *c)
	}
	c.land(5)
	c.own(6)
	if *c != (cursor{LastSeen: 4, Notified: 5, Material: 5}) {
		t.Fatalf("own event with a notice pending changed it: %+v", *c)
	}
	if c.drain() {
		t.Fatal("an own event reopened a notice")
	}
}

// A failed append is a warning, never a failure: when the commit with its
// events cannot be written, the change is committed without them, and no
// head or cursor moves past what was written.
func TestRecordingIsBestEffort(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	failing := false
	h := logHome(t, faultyFS{fail: func(name string) bool {
		// The first try writes the journal with the event in it; the
		// second, without, is the chat's record alone.
		return failing && strings.HasSuffix(name, store.JournalName)
	}}, &now)
	ids := newChats(t, h, 2)
	mustUpdate(t, h, func(tx *Tx) error { _, err := tx.Chats().Watch(Actor{ID: ids[1]}, ids[0]); return err })
	failing = true
	goal := "ship it"
	var tx *Tx
	err := h.Update(func(t *Tx) error {
		tx = t
		_, err := t.Chats().Set(Actor{}, ids[0], ChatChange{Goal: &goal})
		return err
	})
	if err != nil {
		t.Fatalf("a failed append failed the command: %v", err)
	}
	if w := tx.Warnings(); len(w) != 1 || !strings.Contains(w[0], "was not recorded") || !strings.Contains(w[0], store.JournalName) {
		t.Fatalf("warnings %q, want one saying the event was not recorded, and why", w)
	}
	h.View(func(tx *View) error {
		c, err := tx.Chats().Get(ids[0])
		if err != nil || c.Goal != goal {
			t.Fatalf("the goal was not written: %v %v", c, err)
		}
		cs, err := tx.Log().cursors(ids[1])
		if err != nil || cs.Targets[ids[0]].Notified != 0 || cs.Targets[ids[0]].Material != 0 {
			t.Fatalf("the watcher's cursor moved past the log: %+v %v", cs.Targets[ids[0]], err)
		}
		return nil
	})
	if hd := headOf(t, h, ids[0]); hd.StateVersion != 0 {
		t.Fatalf("head %d after failed appends, want 0", hd.StateVersion)
	}
	// Once the disk works again, sequences go on without a gap.
	failing = false
	recordN(t, h, ids[0], 1)
	if hd := headOf(t, h, ids[0]); hd.StateVersion != 1 {
		t.Fatalf("head %d, want 1", hd.StateVersion)
	}
}

// The head failing as the first record of a commit is written (the disk
// full under it): nothing of the commit was written, so it is taken back
// (issue 29), and the change is made once more without its event, as a
// failed append is (SPEC §7: recording is best-effort): the command
// answers with a warning, the head on the disk never runs ahead of its
// event, and no journal is left for the next command.
func TestFailedHeadIsTakenBack(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	failing := false
	h := logHome(t, faultyFS{fail: func(name string) bool {
		return failing && strings.HasSuffix(name, "head.json")
	}}, &now)
	ids := newChats(t, h, 1)
	recordN(t, h, ids[0], 1)
	failing = true
	var last *Tx
	goal := "ship it"
	mustUpdate(t, h, func(tx *Tx) error {
		last = tx
		_, err := tx.Chats().Set(Actor{}, ids[0], ChatChange{Goal: &goal})
		return err
	})
	if warns := last.Warnings(); len(warns) != 1 || !strings.Contains(warns[0], "not recorded") {
		t.Fatalf("warnings %q, want one saying the event was not recorded", last.Warnings())
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "commit.journal")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a journal stands: %v", err)
	}
	failing = false
	mustUpdate(t, h, func(tx *Tx) error { return nil })
	if hd := headOf(t, h, ids[0]); hd.StateVersion != 1 {
		t.Fatalf("head %d, want 1 (the event was not recorded)", hd.StateVersion)
	}
	h.View(func(tx *View) error {
		c, err := tx.Chats().Get(ids[0])
		if err != nil || c.Goal != goal {
			t.Fatalf("the goal: %+v %v", c, err)
		}
		return nil
	})
}

func TestRecordEventRefusesUnknownWords(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h := logHome(t, nil, &now)
	ids := newChats(t, h, 1)
	var warns []string
	mustUpdate(t, h, func(tx *Tx) error {
		c, _ := tx.Chats().Get(ids[0])
		tx.Log().Record(c, "exploded", ActorSystem, "", "x", "")
		tx.Log().Record(c, kindAdopted, "martian", "", "x", "")
		tx.Log().Record(c, kindFailed, ActorSystem, "", "x", "bored")
		tx.Log().Record(c, kindAdopted, ActorSystem, "", "adopted\nfrom   claude\x00", "")
		warns = tx.Warnings()
		return nil
	})
	if len(warns) != 3 {
		t.Fatalf("warnings %q, want 3", warns)
	}
	var st *Status
	since := int64(0)
	h.View(func(tx *View) (err error) { st, err = tx.Log().Status(Actor{}, ids[0], &since); return err })
	if len(st.Events) != 1 || st.Events[0].Summary != "adopted from claude" {
		t.Fatalf("events %+v, want the one adopted event, its summary on one line", st.Events)
	}
}

func TestStatusTruncatesAt200(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h := logHome(t, fastFS{}, &now)
	ids := newChats(t, h, 1)
	recordN(t, h, ids[0], 250)
	for _, tc := range []struct {
		since           int64
		n               int
		first           int64
		truncated, more bool
	}{
		{0, 200, 1, true, true},
		{200, 50, 201, false, false},
		{249, 1, 250, false, false},
		{250, 0, 0, false, false},
		{900, 0, 0, false, false},
	} {
		var st *Status
		since := tc.since
		if err := h.View(func(tx *View) (err error) { st, err = tx.Log().Status(Actor{}, ids[0], &since); return err }); err != nil {
			t.Fatal(err)
		}
		if len(st.Events) != tc.n || st.Truncated != tc.truncated || st.StateVersion != 250 || st.HistoryGap {
			t.Fatalf("--since %d: %d events, truncated %v, version %d, gap %v", tc.since, len(st.Events), st.Truncated, st.StateVersion, st.HistoryGap)
		}
		for i, ev := range st.Events {
			if ev.Sequence != tc.first+int64(i) {
				t.Fatalf("--since %d: event %d has sequence %d", tc.since, i, ev.Sequence)
			}
		}
	}
}

// A status reading lock-free while a gc prunes under it starts over from
// the new watermark and says there is a gap.
func TestStatusRacingPrune(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h := logHome(t, nil, &now)
	ids := newChats(t, h, 1)
	recordN(t, h, ids[0], 5)
	err := h.View(func(tx *View) error {
		if _, err := tx.Log().head(ids[0]); err != nil { // the reader has the old head
			return err
		}
		later := now.Add(40 * 24 * time.Hour)
		now = later
		if _, err := h.gc(Limits{Age: 30 * 24 * time.Hour, Events: 3, Batch: 100}); err != nil {
			return err
		}
		since := int64(0)
		st, err := tx.Log().Status(Actor{}, ids[0], &since)
		if err != nil {
			return err
		}
		if !st.HistoryGap || len(st.Events) != 0 || st.EarliestAvailable != 6 || st.StateVersion != 5 {
			t.Fatalf("status %+v, want a gap, no events, earliest 6, version 5", st)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The cap prunes the oldest events of all, across chats, in batches, and
// every head stays where it was.
func TestCapPrunesOldestFirst(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h := logHome(t, nil, &now)
	ids := newChats(t, h, 3)
	// Interleave: a1 b1 c1 a2 b2 c2 ... a minute apart.
	for i := 0; i < 4; i++ {
		for _, id := range ids {
			recordN(t, h, id, 1)
			now = now.Add(time.Minute)
		}
	}
	res, err := h.gc(Limits{Age: 30 * 24 * time.Hour, Events: 5, Batch: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pruned != 7 {
		t.Fatalf("pruned %d, want 7", res.Pruned)
	}
	// 12 events, 7 oldest gone: a1 b1 c1 a2 b2 c2 a3. Left: b3 c3 a4 b4 c4.
	for id, want := range map[string]head{
		ids[0]: {StateVersion: 4, Pruned: 3},
		ids[1]: {StateVersion: 4, Pruned: 2},
		ids[2]: {StateVersion: 4, Pruned: 2},
	} {
		got := headOf(t, h, id)
		if got.StateVersion != want.StateVersion || got.Pruned != want.Pruned {
			t.Fatalf("%s head %+v, want %+v", id, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "log", ids[0], "000000000003.json")); !os.IsNotExist(err) {
		t.Fatalf("a pruned event is still there: %v", err)
	}
	// The next event goes on from the head.
	recordN(t, h, ids[0], 1)
	if got := headOf(t, h, ids[0]); got.StateVersion != 5 {
		t.Fatalf("head %d after pruning, want 5", got.StateVersion)
	}
}

// The real cap: 50,000 events in all, heads monotonic. The logs hold
// 50,100 events by their heads, but only their first 150 have files: gc
// must open only what it prunes (and the next event of each log), so a file
// it should not have needed would show up as an event missing, pruned, and
// the count would be off.
func TestCap50000(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h := logHome(t, nil, &now)
	ids := newChats(t, h, 10)
	for i, id := range ids {
		if err := BuildLog(h, id, 5010, 150, now.Add(time.Duration(i)*time.Hour), time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	before := map[string]head{}
	for _, id := range ids {
		before[id] = headOf(t, h, id)
	}
	res, err := h.GC()
	if err != nil {
		t.Fatal(err)
	}
	if res.Pruned != 100 {
		t.Fatalf("pruned %d, want 100", res.Pruned)
	}
	total := int64(0)
	for _, id := range ids {
		hd := headOf(t, h, id)
		if hd.StateVersion != before[id].StateVersion {
			t.Fatalf("%s: head went from %d to %d", id, before[id].StateVersion, hd.StateVersion)
		}
		total += hd.StateVersion - hd.Pruned
	}
	if total != 50_000 {
		t.Fatalf("%d events kept, want 50,000", total)
	}
	// The first chat's oldest 100 went: all recorded before any other's.
	if hd := headOf(t, h, ids[0]); hd.Pruned != 100 {
		t.Fatalf("first chat pruned to %d, want 100", hd.Pruned)
	}
}

// A writing command that finds the last gc an hour old starts one after it
// commits; the first event of a home only starts the clock.
func TestGCWhenDue(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h := logHome(t, nil, &now)
	ids := newChats(t, h, 1)
	afters := func() int {
		n := 0
		mustUpdate(t, h, func(tx *Tx) error {
			c, _ := tx.Chats().Get(ids[0])
			tx.Log().Record(c, KindCompacted, ActorSystem, "", "x", "")
			tx.Log().Record(c, KindCompacted, ActorSystem, "", "x", "")
			n = len(tx.after)
			return nil
		})
		return n
	}
	if n := afters(); n != 0 {
		t.Fatalf("the first event started %d gc runs", n)
	}
	now = now.Add(59 * time.Minute)
	if n := afters(); n != 0 {
		t.Fatalf("a gc started within the hour")
	}
	now = now.Add(2 * time.Minute)
	if n := afters(); n != 1 {
		t.Fatalf("%d gc runs started an hour on, want 1", n)
	}
	if n := afters(); n != 0 {
		t.Fatalf("a gc started right after one did")
	}
}

// Pruning stamps the watermark before it removes: a gc that stops between
// the two leaves events below the watermark, which status never shows and
// the next gc sweeps.
func TestSweepBelowWatermark(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h := logHome(t, nil, &now)
	ids := newChats(t, h, 1)
	recordN(t, h, ids[0], 4)
	mustUpdate(t, h, func(tx *Tx) error {
		hd, _ := tx.Log().head(ids[0])
		hd.Pruned = 2
		tx.put(headRel(ids[0]), hd, true)
		return nil
	})
	since := int64(0)
	var st *Status
	h.View(func(tx *View) (err error) { st, err = tx.Log().Status(Actor{}, ids[0], &since); return err })
	if !st.HistoryGap || len(st.Events) != 2 || st.Events[0].Sequence != 3 {
		t.Fatalf("status %+v, want a gap and events 3, 4", st)
	}
	if _, err := h.GC(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "log", ids[0], "000000000002.json")); !os.IsNotExist(err) {
		t.Fatalf("an event below the watermark was not swept: %v", err)
	}
}

// A clock pinned ahead of the wall clock (CONCH_NOW a year on) reads as
// that time, but retention prunes by the wall clock (issue 12, rule 16).
func TestRetentionNeverAheadOfTheWall(t *testing.T) {
	wall := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	now := wall
	h, err := Open(Options{Dir: filepath.Join(t.TempDir(), "home"), Now: func() time.Time { return now }, Wall: func() time.Time { return wall }, Hostname: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ids := newChats(t, h, 1)
	recordN(t, h, ids[0], 5)
	now = wall.Add(365 * 24 * time.Hour)
	res, err := h.gc(Limits{Age: 30 * 24 * time.Hour, Events: 1000, Batch: 100})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pruned != 0 {
		t.Fatalf("gc with the clock a year ahead of the wall pruned %d events", res.Pruned)
	}
	wall = now
	if res, err = h.gc(Limits{Age: 30 * 24 * time.Hour, Events: 1000, Batch: 100}); err != nil || res.Pruned != 5 {
		t.Fatalf("gc once the wall got there pruned %d (%v), want 5", res.Pruned, err)
	}
}

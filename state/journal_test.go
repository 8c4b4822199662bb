package state

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// crashFS is the file system of a writer killed at its Nth call: every
// call from then on does nothing and fails.
type crashFS struct{ faultFS }

// TestJournalCrashPoints kills a commit of several records at each of its
// file-system calls (before the journal, after it is written, half way
// through applying it, before it is removed) and then runs the next
// command: the home is as before the commit, or as after it, never
// between; and each of those points is met.
func TestJournalCrashPoints(t *testing.T) {
	ops := map[string]func(tx *Tx) error{
		"send": func(tx *Tx) error {
			_, err := tx.Messages().Send(Actor{ID: "c_2"}, SendIn{To: "c_1", Text: "and back", Watch: true})
			return err
		},
		"notes": func(tx *Tx) error {
			n, err := tx.Notes().For(Actor{ID: "c_2"})
			if err != nil {
				return err
			}
			return tx.Notes().Mark(Actor{ID: "c_2"}, n)
		},
		"chat delete": func(tx *Tx) error { _, err := tx.Chats().Delete(Actor{}, "c_1"); return err },
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			base := filepath.Join(root, "base", "home")
			faultBase(t, base)
			before := visible(t, base)
			afterDir := filepath.Join(root, "after", "home")
			copyTree(t, base, afterDir)
			if err := openAt(t, afterDir, nil).Update(op); err != nil {
				t.Fatal(err)
			}
			after := visible(t, afterDir)
			met := map[string]bool{}
			for n := 1; ; n++ {
				dir := filepath.Join(root, fmt.Sprint(n), "home")
				copyTree(t, base, dir)
				cfs := &crashFS{faultFS{FS: quickFS{}, failAt: n, sticky: true}}
				h, err := Open(Options{Dir: dir, Now: func() time.Time { return faultNow }, Wall: func() time.Time { return faultNow }, Hostname: "test", FS: cfs})
				if err == nil {
					_ = h.Update(op) // killed: what it says is never heard
				}
				if len(cfs.failed) == 0 {
					break
				}
				met[crashPoint(t, dir, before)] = true
				if err := openAt(t, dir, nil).Update(func(tx *Tx) error { return nil }); err != nil {
					t.Fatalf("killed at call %d (%s): the next command: %v", n, cfs.failed[0], err)
				}
				now := visible(t, dir)
				if !equalSnap(now, before) && !equalSnap(now, after) {
					t.Errorf("killed at call %d (%s): the home is neither as before nor as after:\n%s", n, cfs.failed[0], diffSnap(now, after))
				}
				if _, err := os.Stat(filepath.Join(dir, store.JournalName)); err == nil {
					t.Errorf("killed at call %d: the next command left the journal", n)
				}
			}
			for _, p := range []string{"before the journal", "journal written, nothing applied", "half applied", "applied, journal not removed"} {
				if !met[p] {
					t.Errorf("no kill fell %s (met: %v)", p, met)
				}
			}
		})
	}
}

// crashPoint says where in the commit a killed writer left the home.
func crashPoint(t *testing.T, dir string, before map[string]string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, store.JournalName))
	if err != nil {
		return "before the journal"
	}
	entries, err := store.DecodeJournal(data)
	if err != nil {
		t.Fatalf("a killed writer left a torn journal: %v", err)
	}
	// Only the entries that change something count (a watch registered
	// again writes its cursor as it was).
	applied, changes := 0, 0
	for _, e := range entries {
		was, there := before[e.Key]
		if e.Delete && !there || !e.Delete && there && was == string(e.Data) {
			continue
		}
		changes++
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.Key)))
		if (e.Delete && errors.Is(err, os.ErrNotExist)) || (!e.Delete && err == nil && bytes.Equal(got, e.Data)) {
			applied++
		}
	}
	switch applied {
	case 0:
		return "journal written, nothing applied"
	case changes:
		return "applied, journal not removed"
	}
	return "half applied"
}

// A journal left behind (its writer killed after the commit point) is
// finished by the next command that writes, before its own work; doctor
// names one left for long, and --repair finishes it. A torn one is
// dropped unapplied.
func TestJournalLeftBehind(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	faultBase(t, dir)
	h := openAt(t, dir, nil)
	goal := []byte("{\"left\": true}\n")
	ws := []store.Write{
		{Key: "notes-of-the-test.json", Data: goal, Class: store.Durable},
		{Key: "watch/c_2.json", Delete: true},
	}
	write := func(data []byte) {
		t.Helper()
		p := filepath.Join(dir, store.JournalName)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		old := faultNow.Add(-time.Hour)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	write(store.EncodeJournal(ws))
	found, err := h.Doctor(false)
	if err != nil || len(found) != 1 || found[0].Problem != store.JournalCut {
		t.Fatalf("doctor: %+v %v; want the journal named", found, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes-of-the-test.json")); err == nil {
		t.Fatal("a reader applied the journal")
	}
	repaired, err := h.Doctor(true)
	if err != nil || len(repaired) == 0 || repaired[0].Problem != store.JournalCut || repaired[0].Repaired == "" {
		t.Fatalf("doctor --repair: %+v %v", repaired, err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "notes-of-the-test.json")); err != nil || !bytes.Equal(got, goal) {
		t.Fatalf("after the repair the record is %q (%v)", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "watch", "c_2.json")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("after the repair the removal is not done: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, store.JournalName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the journal is left")
	}
	// Torn: cut before its end line. Nothing of it is applied.
	ws[0].Data = []byte("{\"torn\": true}\n")
	data := store.EncodeJournal(ws)
	write(data[:len(data)-5])
	if err := h.Update(func(tx *Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "notes-of-the-test.json")); !bytes.Equal(got, goal) {
		t.Fatalf("a torn journal was applied: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, store.JournalName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the torn journal is left")
	}
}

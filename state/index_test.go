package state

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store"
)

func testHome(t *testing.T) *Home {
	t.Helper()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	// In memory: these tests ask the domain, not the disk.
	h, err := Open(Options{Dir: "mem", Store: store.NewMem(), Now: func() time.Time { return now }, Hostname: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestStepLeavesTheIndexAlone: a step changes only its reply's live state,
// so it must not rewrite (or even read) the index that chats list reads.
func TestStepLeavesTheIndexAlone(t *testing.T) {
	h := testHome(t)
	me := Actor{ID: "c_1"}
	if err := h.Update(func(tx *Tx) error {
		_, err := tx.Chats().Create(Actor{}, NewChat{Title: "One", Folder: "/src"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := h.Update(func(tx *Tx) error {
		_, err := tx.Replies().Start(me, ReplyStart{PID: os.Getpid()})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	rec := &recordingStore{Store: h.store}
	h.store = rec
	for i := 0; i < 3; i++ {
		if err := h.Update(func(tx *Tx) error {
			_, err := tx.Replies().Step(me, StepIn{Family: "edit", Files: []string{"/src/a.go"}, PID: os.Getpid()})
			if tx.index != nil {
				t.Error("a step read the index")
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	if slices.Contains(rec.keys, "index.json") {
		t.Error("a step rewrote index.json")
	}
	// A reply's end changes the summary: the index is rewritten.
	if err := h.Update(func(tx *Tx) error { _, err := tx.Replies().End(me, ReplyEnd{}); return err }); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rec.keys, "index.json") {
		t.Error("reply end left the index as it was")
	}
}

// recordingStore notes the keys every commit writes.
type recordingStore struct {
	store.Store
	keys []string
}

func (r *recordingStore) Commit(ws []store.Write) ([]string, error) {
	for _, w := range ws {
		r.keys = append(r.keys, w.Key)
	}
	return r.Store.Commit(ws)
}

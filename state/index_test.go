package state

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func testHome(t *testing.T) *Home {
	t.Helper()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h, err := Open(Options{Dir: filepath.Join(t.TempDir(), "home"), Now: func() time.Time { return now }, Hostname: "test"})
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
		_, err := tx.CreateChat(Actor{}, NewChat{Title: "One", Folder: "/src"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := h.Update(func(tx *Tx) error {
		_, err := tx.StartReply(me, ReplyStart{PID: os.Getpid()})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(h.Dir, "index.json")
	before, err := os.Stat(index)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := h.Update(func(tx *Tx) error {
			_, err := tx.Step(me, StepIn{Family: "edit", Files: []string{"/src/a.go"}, PID: os.Getpid()})
			if tx.index != nil {
				t.Error("a step read the index")
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	after, err := os.Stat(index)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("a step rewrote index.json")
	}
	// A reply's end changes the summary: the index is rewritten.
	if err := h.Update(func(tx *Tx) error { _, err := tx.EndReply(me, ReplyEnd{}); return err }); err != nil {
		t.Fatal(err)
	}
	if end, _ := os.Stat(index); os.SameFile(before, end) {
		t.Error("reply end left the index as it was")
	}
}

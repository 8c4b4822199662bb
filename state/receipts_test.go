package state_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
)

// deadPID is a process id no process has (past every system's largest).
const deadPID = 1 << 30

// homeAs is the home at dir as the process pid sees it.
func homeAs(t *testing.T, dir string, pid int) *state.Home {
	t.Helper()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	h, err := state.Open(state.Options{Dir: dir, Now: func() time.Time { return now }, Hostname: "test", Store: store.NewFiles(dir, nil, 0), PID: pid})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// said is what one notes of c_2 says and marks, counted.
type said struct{ messages, waits, notices int }

func tellC2(t *testing.T, h *state.Home) said {
	t.Helper()
	var s said
	err := h.TellNotes(state.Actor{ID: "c_2"}, state.Teller{Mark: true, Say: func(tx *state.Tx, n *state.Notes) (*state.Notes, error) {
		s = said{len(n.Messages), len(n.Waits), len(n.Notices)}
		return n, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReceiptUndoesADeadWritersMarks (issue 29): the marks of a notes
// whose process died before it got out (no Confirm) are undone by the
// chat's next notes: the message, the ended wait and the notice are said
// again, once; a process that confirmed keeps its marks, and one still
// running is left alone.
func TestReceiptUndoesADeadWritersMarks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	h := homeAs(t, dir, 0)
	twoChats(t, h, "", "")
	c1, c2 := state.Actor{ID: "c_1"}, state.Actor{ID: "c_2"}
	update := func(fn func(tx *state.Tx) error) {
		t.Helper()
		if err := h.Update(fn); err != nil {
			t.Fatal(err)
		}
	}
	send := func(text string) {
		t.Helper()
		update(func(tx *state.Tx) error {
			_, err := tx.Messages().Send(c1, state.SendIn{To: "c_2", Text: text})
			return err
		})
	}
	update(func(tx *state.Tx) error {
		if _, err := tx.Chats().Watch(c2, "c_1"); err != nil {
			return err
		}
		_, err := tx.Waits().Start(c2, "chat", "c_1", 0)
		return err
	})
	goal := "ship it"
	update(func(tx *state.Tx) error {
		_, err := tx.Chats().Set(state.Actor{}, "c_1", state.ChatChange{Goal: &goal})
		return err
	})
	update(func(tx *state.Tx) error { _, err := tx.Replies().End(c1, state.ReplyEnd{Text: "done"}); return err })
	send("the copy is ready")

	// A writer killed after its commit: nothing confirms its receipt.
	all := said{1, 1, 1}
	if got := tellC2(t, homeAs(t, dir, deadPID)); got != all {
		t.Fatalf("the writer said %+v, want %+v", got, all)
	}
	if got := tellC2(t, h); got != all {
		t.Fatalf("after a writer that died with its marks: %+v said again, want %+v", got, all)
	}
	if err := h.Confirm(); err != nil {
		t.Fatal(err)
	}
	if got := tellC2(t, h); got != (said{}) {
		t.Fatalf("after a confirmed notes: %+v said again", got)
	}
	if names, _ := os.ReadDir(filepath.Join(dir, "marks")); len(names) != 0 {
		t.Fatalf("receipts left: %v", names)
	}

	// A writer that got out: its receipt is gone, its marks stand.
	send("second")
	out := homeAs(t, dir, deadPID)
	if got := tellC2(t, out); got.messages != 1 {
		t.Fatalf("the second message: %+v", got)
	}
	if err := out.Confirm(); err != nil {
		t.Fatal(err)
	}
	if got := tellC2(t, h); got != (said{}) {
		t.Fatalf("after a writer that got out: %+v said again", got)
	}

	// A writer still running (here, this test's parent): it may still
	// get out, so its marks are left as they are.
	send("third")
	running := homeAs(t, dir, os.Getppid())
	if got := tellC2(t, running); got.messages != 1 {
		t.Fatalf("the third message: %+v", got)
	}
	if got := tellC2(t, h); got != (said{}) {
		t.Fatalf("while its writer runs: %+v said again", got)
	}
	if err := running.Confirm(); err != nil {
		t.Fatal(err)
	}
	if names, _ := os.ReadDir(filepath.Join(dir, "marks")); len(names) != 0 {
		t.Fatalf("receipts left: %v", names)
	}
	if found, err := h.Doctor(false); err != nil || len(found) != 0 {
		t.Fatalf("doctor: %v %+v", err, found)
	}
}

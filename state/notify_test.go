package state

import (
	"testing"
)

// TestNotifyReadsNothingUnset: with no [notify] command, an event that
// needs the person reads no notify.json and starts nothing; with one, it
// reads it and starts the command after the commit. A step or notes
// reads it in neither case.
func TestNotifyReadsNothingUnset(t *testing.T) {
	h := testHome(t)
	setup := func(tx *Tx) error {
		for _, title := range []string{"One", "Two"} {
			if _, err := tx.Chats().Create(Actor{}, NewChat{Title: title, Folder: "/src"}); err != nil {
				return err
			}
		}
		return nil
	}
	if err := h.Update(setup); err != nil {
		t.Fatal(err)
	}
	look := func(what string, fn func(tx *Tx) error) (read bool, after int) {
		t.Helper()
		if err := h.Update(func(tx *Tx) error {
			err := fn(tx)
			_, read = tx.cached(notifyRel)
			after = len(tx.after)
			return err
		}); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return read, after
	}
	needs := func(id string) func(tx *Tx) error {
		return func(tx *Tx) error {
			s := StatusNeedsYou
			_, err := tx.Chats().Set(Actor{}, id, ChatChange{Status: &s})
			return err
		}
	}
	hot := func(tx *Tx) error {
		if _, err := tx.Replies().Start(Actor{ID: "c_2"}, ReplyStart{PID: 1}); err != nil {
			return err
		}
		if _, err := tx.Replies().Step(Actor{ID: "c_2"}, StepIn{Family: "edit", Files: []string{"/src/a.go"}, PID: 1}); err != nil {
			return err
		}
		_, err := tx.Notes().For(Actor{ID: "c_2"})
		return err
	}
	if read, after := look("needs you, unset", needs("c_1")); read || after != 0 {
		t.Errorf("unset: notify.json read %v, %d after the commit", read, after)
	}
	if read, _ := look("a step, unset", hot); read {
		t.Error("unset: a step read notify.json")
	}
	h.Config.Notify.Command = []string{"true"}
	if read, _ := look("a step, set", hot); read {
		t.Error("set: a step read notify.json")
	}
	if read, after := look("needs you, set", needs("c_2")); !read || after != 1 {
		t.Errorf("set: notify.json read %v, %d after the commit, want the command started once", read, after)
	}
}

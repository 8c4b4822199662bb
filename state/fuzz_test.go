package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The record parsers, fuzzed: whatever bytes a record file holds, reading
// it never panics, and a record that does not decode is a CorruptError
// naming that file. The commands that read the record (and those that then
// write it back) must not panic either: they answer, or fail with an error
// of a known kind. Seeds are in testdata/fuzz/<target>.

// fuzzHome is a home with c_1 (a reply running, its harness this test), c_2
// working in the same folder, and t_1 a task of c_1; then the file at rel
// holds data.
func fuzzHome(t *testing.T, rel string, data []byte) (*Home, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "home")
	h := openAt(t, dir, nil)
	work := filepath.Join(filepath.Dir(dir), "work")
	err := h.Update(func(tx *Tx) error {
		for _, title := range []string{"One", "Two"} {
			c, err := tx.CreateChat(Actor{}, NewChat{Title: title, Folder: work})
			if err != nil {
				return err
			}
			if _, err := tx.Step(Actor{ID: c.ID}, StepIn{Family: "edit", Files: []string{filepath.Join(work, "a.go")}, PID: os.Getpid()}); err != nil {
				return err
			}
		}
		_, err := tx.CreateTask(Actor{ID: "c_1"}, NewTask{Title: "Three"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	p := h.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return h, p
}

// knownErr fails the test unless err is nil, an error of a known kind, or
// a CorruptError that names path.
func knownErr(t *testing.T, what string, err error, path string) {
	t.Helper()
	var ce *CorruptError
	var e *Error
	var se *StoppedError
	switch {
	case err == nil, errors.As(err, &e), errors.As(err, &se):
	case errors.As(err, &ce):
		if ce.Path != path {
			t.Errorf("%s: corrupt record %s, want %s", what, ce.Path, path)
		}
	default:
		t.Errorf("%s: an error of no known kind: %v", what, err)
	}
}

// mustCorrupt fails the test unless data, which does not decode as a T,
// was reported as a CorruptError naming path.
func mustCorrupt[T any](t *testing.T, data []byte, err error, path string) {
	t.Helper()
	v := new(T)
	if json.Unmarshal(data, v) == nil && string(bytes.TrimSpace(data)) != "null" {
		return
	}
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Path != path {
		t.Errorf("a record that does not decode gave %v, want a CorruptError naming %s", err, path)
	}
}

// readers runs what reads records, as the chat c_1 and as the person.
func readers(t *testing.T, h *Home, path string) {
	t.Helper()
	knownErr(t, "view", h.View(func(tx *Tx) error {
		for _, id := range []string{"c_1", "c_2", "t_1"} {
			c, err := tx.Chat(id)
			knownErr(t, "chat "+id, err, path)
			if err == nil {
				_, _ = c.State(), c.Active()
				_, _ = c.StopPending(), c.StopHeard()
				_, err := tx.Show(Actor{ID: "c_1"}, c)
				knownErr(t, "show "+id, err, path)
			}
		}
		for _, a := range []Actor{{}, {ID: "c_1"}, {ID: "c_2"}} {
			_, err := tx.ListChats(a, false)
			knownErr(t, "list", err, path)
		}
		for _, id := range []string{"c_1", "c_2", "t_1"} {
			_, err := tx.Notes(Actor{ID: id})
			knownErr(t, "notes "+id, err, path)
		}
		return nil
	}), path)
}

// writers runs what reads a record and writes it back.
func writers(t *testing.T, h *Home, path string) {
	t.Helper()
	for _, op := range []func(tx *Tx) error{
		func(tx *Tx) error {
			_, err := tx.Step(Actor{ID: "c_1"}, StepIn{Family: "edit", Files: []string{"/w/b.go"}})
			return err
		},
		func(tx *Tx) error {
			n, err := tx.Notes(Actor{ID: "c_1"})
			if err != nil {
				return err
			}
			return tx.MarkNotes(Actor{ID: "c_1"}, n)
		},
		func(tx *Tx) error { _, err := tx.EndReply(Actor{ID: "c_1"}, ReplyEnd{Text: "done"}); return err },
		func(tx *Tx) error { _, err := tx.StartReply(Actor{ID: "c_2"}, ReplyStart{Person: true}); return err },
		func(tx *Tx) error {
			_, err := tx.SetChat(Actor{}, "c_2", ChatChange{Goal: ptr("g"), Status: ptr(StatusIdle)})
			return err
		},
		func(tx *Tx) error { _, err := tx.SetTask(Actor{ID: "c_1"}, "t_1", TaskDone, nil); return err },
		func(tx *Tx) error {
			_, err := tx.CreateChat(Actor{ID: "c_1"}, NewChat{Title: "x", Folder: "/w", Parent: "c_1", Key: "k"})
			return err
		},
		func(tx *Tx) error { _, err := tx.DeleteChat(Actor{}, "c_2"); return err },
	} {
		knownErr(t, "update", h.Update(op), path)
	}
	// Whatever the commands wrote is whole, and lands where it belongs.
	findings, err := h.Doctor(false)
	if err != nil {
		t.Errorf("doctor afterwards: %v", err)
	}
	for _, f := range findings {
		if strings.HasPrefix(f.Problem, "record") && f.Path != path {
			t.Errorf("doctor afterwards: %s: %s", f.Path, f.Problem)
		}
	}
	if _, err := os.Stat(h.path("chats/.json")); err == nil {
		t.Errorf("a record was written under no id: chats/.json")
	}
}

func FuzzChatRecord(f *testing.F) {
	f.Add([]byte(`{"id":"c_1","title":"x","reply":{"id":"c_1.1","files":["/a"]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, path := fuzzHome(t, "chats/c_1.json", data)
		err := h.View(func(tx *Tx) error { _, err := tx.Chat("c_1"); return err })
		knownErr(t, "read", err, path)
		mustCorrupt[Chat](t, data, err, path)
		readers(t, h, path)
		writers(t, h, path)
	})
}

func FuzzTaskRecord(f *testing.F) {
	f.Add([]byte(`{"id":"t_1","parent":"c_1","task":{"state":"running"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, path := fuzzHome(t, "tasks/t_1.json", data)
		err := h.View(func(tx *Tx) error { _, err := tx.Chat("t_1"); return err })
		knownErr(t, "read", err, path)
		mustCorrupt[Chat](t, data, err, path)
		readers(t, h, path)
		writers(t, h, path)
	})
}

func FuzzIndex(f *testing.F) {
	f.Add([]byte(`{"chats":{"c_1":{"id":"c_1","status":"idle"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, path := fuzzHome(t, "index.json", data)
		err := h.View(func(tx *Tx) error { _, err := tx.ReadIndex(); return err })
		knownErr(t, "read", err, path)
		mustCorrupt[Index](t, data, err, path)
		readers(t, h, path)
		writers(t, h, path)
	})
}

func FuzzHead(f *testing.F) {
	f.Add([]byte(`{"state_version":3,"pruned":1,"touched":"2026-11-29T12:00:00Z"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, path := fuzzHome(t, headRel("c_1"), data)
		err := h.View(func(tx *Tx) error { _, err := tx.StateVersion("c_1"); return err })
		knownErr(t, "read", err, path)
		mustCorrupt[Head](t, data, err, path)
		readers(t, h, path)
		writers(t, h, path)
	})
}

func FuzzCounters(f *testing.F) {
	f.Add([]byte(`{"c":2,"t":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, path := fuzzHome(t, "counters.json", data)
		err := h.Update(func(tx *Tx) error { _, err := tx.CreateChat(Actor{}, NewChat{Title: "x", Folder: "/w"}); return err })
		knownErr(t, "new chat", err, path)
		mustCorrupt[Counters](t, data, err, path)
		writers(t, h, path)
	})
}

func FuzzKeys(f *testing.F) {
	f.Add([]byte(`{"chat new\u0000\u0000k":"c_1"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, path := fuzzHome(t, "keys.json", data)
		err := h.Update(func(tx *Tx) error {
			_, err := tx.CreateChat(Actor{}, NewChat{Title: "x", Folder: "/w", Key: "k"})
			return err
		})
		knownErr(t, "keyed new chat", err, path)
		mustCorrupt[Keys](t, data, err, path)
		writers(t, h, path)
	})
}

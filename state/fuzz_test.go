package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The record parsers, fuzzed: whatever bytes a record file holds, reading
// it never panics, and a record that does not decode is a CorruptError
// naming that file. The commands that read the record (and those that then
// write records) must not panic either: they answer, or fail with an error
// of a known kind, and leave every other record whole. Seeds are in
// testdata/fuzz/<target>.
//
// The home each input lands in is the fault walk's base (faultfs_test.go):
// chats working and idle, a task, a spawned chat, a message due and one
// held, a watch, a request, and their logs.

// fuzzTemplate makes the base home once per fuzz target (and per fuzzing
// worker); each input gets a copy.
func fuzzTemplate(f *testing.F) string {
	dir := filepath.Join(f.TempDir(), "home")
	faultBase(f, dir)
	return dir
}

// fuzzHome is a copy of the template with data in the file at rel.
func fuzzHome(t *testing.T, template, rel string, data []byte) (*Home, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "home")
	copyTree(t, template, dir)
	h := openAt(t, dir, nil)
	p := h.where(rel)
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
		// It names the file, or the file that says what it lacks (a head
		// that claims an event the log does not hold).
		if ce.Path != path && !strings.Contains(ce.Err.Error(), path) {
			t.Errorf("%s: corrupt record %s, want %s (%v)", what, ce.Path, path, ce.Err)
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

// readers runs what reads records, as chats and as the person.
func readers(t *testing.T, h *Home, path string) {
	t.Helper()
	person := Actor{Terminal: true}
	knownErr(t, "view", h.View(func(tx *View) error {
		for _, id := range []string{"c_1", "c_2", "c_3", "t_1"} {
			c, err := tx.Chats().Get(id)
			knownErr(t, "chat "+id, err, path)
			if err == nil {
				_, _ = c.state(), c.active()
				_, _ = c.StopPending(), c.stopHeard()
				_, err := tx.Chats().Show(Actor{ID: "c_1"}, c)
				knownErr(t, "show "+id, err, path)
			}
			_, err = tx.Notes().For(Actor{ID: id})
			knownErr(t, "notes "+id, err, path)
			_, err = tx.Messages().Cards(Actor{ID: id}, id)
			knownErr(t, "cards "+id, err, path)
		}
		for _, a := range []Actor{person, {ID: "c_1"}, {ID: "c_2"}} {
			_, err := tx.Chats().List(a, false)
			knownErr(t, "list", err, path)
			since := int64(0)
			_, err = tx.Log().Status(a, "c_1", &since)
			knownErr(t, "status", err, path)
		}
		_, err := tx.Messages().get(person, "m_1")
		knownErr(t, "message", err, path)
		_, err = tx.Requests().List(person)
		knownErr(t, "requests", err, path)
		_, err = tx.Tasks().Status(Actor{ID: "c_2"})
		knownErr(t, "tasks", err, path)
		_, err = tx.Waits().List(Actor{ID: "c_1"})
		knownErr(t, "waits", err, path)
		return nil
	}), path)
}

// writers runs what reads records and writes them back.
func writers(t *testing.T, h *Home, path string) {
	t.Helper()
	person := Actor{Terminal: true}
	c1, c2 := Actor{ID: "c_1"}, Actor{ID: "c_2"}
	for _, op := range []func(tx *Tx) error{
		func(tx *Tx) error {
			_, err := tx.Replies().Step(c2, StepIn{Family: "edit", Files: []string{"/w/b.go"}})
			return err
		},
		func(tx *Tx) error {
			n, err := tx.Notes().For(c2)
			if err != nil {
				return err
			}
			return tx.Notes().Mark(c2, n)
		},
		func(tx *Tx) error {
			_, err := tx.Messages().Send(c1, SendIn{To: "c_2", Text: "once more", StartReply: true, Watch: true, Key: "k"})
			return err
		},
		func(tx *Tx) error { _, err := tx.Messages().Pass(person, "m_2"); return err },
		func(tx *Tx) error { _, err := tx.Requests().Confirm(person, "r_1"); return err },
		func(tx *Tx) error { _, err := tx.Replies().End(c2, ReplyEnd{Text: "done"}); return err },
		func(tx *Tx) error { _, err := tx.Replies().Start(c1, ReplyStart{Person: true}); return err },
		func(tx *Tx) error { _, err := tx.Chats().Set(person, "c_1", ChatChange{Goal: ptr("g")}); return err },
		func(tx *Tx) error { _, err := tx.Tasks().Set(c2, "t_1", TaskDone, nil); return err },
		func(tx *Tx) error { _, err := tx.Chats().Watch(c1, "c_2"); return err },
		func(tx *Tx) error { _, err := tx.Chats().Unwatch(c2, "c_1"); return err },
		func(tx *Tx) error { _, err := tx.Waits().Start(c2, WaitTask, "t_1", 0); return err },
		func(tx *Tx) error { _, err := tx.Waits().Settle(c1); return err },
		func(tx *Tx) error { _, err := tx.Waits().Cancel(c1, "c_2"); return err },
		func(tx *Tx) error { _, err := tx.Log().Compacted(person, "c_1"); return err },
		func(tx *Tx) error { _, err := tx.Chats().Reset(person, "c_2"); return err },
		func(tx *Tx) error {
			_, err := tx.Chats().Create(c1, NewChat{Title: "x", Folder: "/w", Parent: "c_1", Key: "k"})
			return err
		},
		func(tx *Tx) error { _, err := tx.Chats().Delete(person, "c_3"); return err },
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
	misnamed(t, h.Dir, path)
}

// misnamed fails the test if a record (but the one fuzzed) is named for
// one id and holds another: a record read under one name and written back
// under the id it holds.
func misnamed(t *testing.T, dir, fuzzed string) {
	t.Helper()
	for sub, field := range map[string]string{"chats": "id", "tasks": "id", "messages": "id", "requests": "id", "chains": "id", "watch": "watcher", "waits": "waiter"} {
		entries, _ := os.ReadDir(filepath.Join(dir, sub))
		for _, e := range entries {
			p := filepath.Join(dir, sub, e.Name())
			name, ok := strings.CutSuffix(e.Name(), ".json")
			if !ok || (name != "" && strings.HasPrefix(name, ".")) || p == fuzzed {
				continue // not a record, or a temporary file
			}
			data, err := os.ReadFile(p)
			var v map[string]any
			if err != nil || json.Unmarshal(data, &v) != nil {
				continue // doctor's to find
			}
			if v[field] != name {
				t.Errorf("%s holds %s %v: written under another's name", p, field, v[field])
			}
		}
	}
}

// fuzzRecord is the body of each target: data in the record at rel, read
// by read (which must say CorruptError when it does not decode as a T),
// then the readers and writers.
func fuzzRecord[T any](f *testing.F, rel string, read func(tx *View) error, seed string) {
	fuzzRecordIn[T](f, rel, func(h *Home) error { return h.View(read) }, seed)
}

// fuzzRecordIn is fuzzRecord for a record that only a write reads.
func fuzzRecordIn[T any](f *testing.F, rel string, read func(h *Home) error, seed string) {
	f.Add([]byte(seed))
	template := fuzzTemplate(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, path := fuzzHome(t, template, rel, data)
		err := read(h)
		knownErr(t, "read", err, path)
		mustCorrupt[T](t, data, err, path)
		readers(t, h, path)
		if json.Valid(data) {
			// (Bytes that are not JSON at all fail every read the same
			// way; the writers are for records that parse but lie.)
			writers(t, h, path)
		}
	})
}

func FuzzChatRecord(f *testing.F) {
	fuzzRecord[Chat](f, "chats/c_1.json", func(tx *View) error { _, err := tx.Chats().Get("c_1"); return err },
		`{"id":"c_1","title":"x","reply":{"id":"c_1.1","files":["/a"]}}`)
}

func FuzzTaskRecord(f *testing.F) {
	fuzzRecord[Chat](f, "tasks/t_1.json", func(tx *View) error { _, err := tx.Chats().Get("t_1"); return err },
		`{"id":"t_1","parent":"c_2","task":{"state":"running"}}`)
}

func FuzzIndex(f *testing.F) {
	fuzzRecord[Index](f, "index.json", func(tx *View) error { _, err := tx.Chats().Index(); return err },
		`{"version":1,"chats":["c_1|x|||idle||/w|x|1795953600000000000|||||0|0"]}`)
}

func FuzzHead(f *testing.F) {
	fuzzRecord[head](f, headRel("c_1"), func(tx *View) error { _, err := tx.Log().Version("c_1"); return err },
		`{"state_version":3,"pruned":1,"touched":"2026-11-29T12:00:00Z"}`)
}

func FuzzEvent(f *testing.F) {
	fuzzRecord[Event](f, "log/c_1/000000000001.json", func(tx *View) error {
		since := int64(0)
		_, err := tx.Log().Status(Actor{}, "c_1", &since)
		return err
	}, `{"sequence":1,"kind":"goal_changed","actor":"human","at":"2026-11-29T12:00:00Z","summary":"goal set"}`)
}

func FuzzMessage(f *testing.F) {
	fuzzRecord[Message](f, "messages/m_1.json", func(tx *View) error { _, err := tx.Messages().get(Actor{}, "m_1"); return err },
		`{"id":"m_1","from":"c_1","to":"c_2","text":"hello","chain":"ch_2","state":"waiting"}`)
}

func FuzzChain(f *testing.F) {
	fuzzRecord[chain](f, "chains/ch_1.json", func(tx *View) error { _, err := tx.Messages().chain("ch_1"); return err },
		`{"id":"ch_1","messages":2,"started":0,"pairs":{"c_1>c_2":2}}`)
}

func FuzzRequest(f *testing.F) {
	fuzzRecord[Request](f, "requests/r_1.json", func(tx *View) error { _, err := tx.Requests().get(Actor{}, "r_1"); return err },
		`{"id":"r_1","from":"c_3","target":"c_2","reason":"enough","state":"waiting"}`)
}

func FuzzCursors(f *testing.F) {
	fuzzRecord[cursors](f, "watch/c_2.json", func(tx *View) error {
		_, err := tx.Log().cursors("c_2")
		return err
	}, `{"watcher":"c_2","targets":{"c_1":{"last_seen":1,"notified":2,"material":3}}}`)
}

func FuzzWaits(f *testing.F) {
	fuzzRecord[waits](f, "waits/c_1.json", func(tx *View) error { _, err := tx.Waits().List(Actor{ID: "c_1"}); return err },
		`{"waiter":"c_1","waits":{"c_2":{"target":"c_2","kind":"chat","since":"2026-11-29T12:00:00Z"}}}`)
}

func FuzzCounters(f *testing.F) {
	fuzzRecordIn[counters](f, "counters.json", func(h *Home) error {
		return h.Update(func(tx *Tx) error {
			_, err := tx.Chats().Create(Actor{}, NewChat{Title: "x", Folder: "/w"})
			return err
		})
	}, `{"c":3,"t":1}`)
}

func FuzzKeys(f *testing.F) {
	fuzzRecordIn[Keys](f, "keys.json", func(h *Home) error {
		return h.Update(func(tx *Tx) error {
			_, err := tx.Chats().Create(Actor{}, NewChat{Title: "x", Folder: "/w", Key: "k"})
			return err
		})
	}, "{\"chat new\\u0000\\u0000k\":\"c_1\"}")
}

// FuzzValidID holds ValidID, checked by hand, to the pattern it stands for.
func FuzzValidID(f *testing.F) {
	for _, s := range []string{"c_1", "t_1", "c_0", "c_01", "c_", "c_12345678901", "c_1234567890", "x_1", "c_1 ", "C_1", "t_99", "c_١"} {
		f.Add(s)
	}
	pattern := regexp.MustCompile(`^[ct]_[1-9][0-9]{0,9}$`)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidID(s), pattern.MatchString(s); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", s, got, want)
		}
	})
}

// FuzzPlainSessionKey holds plainKey, checked by hand, to the
// pattern it stands for.
func FuzzPlainSessionKey(f *testing.F) {
	for _, s := range []string{"SESSION-A", "a", "", ".a", "-a", "a.b_c-d", "a/b", "a..b", strings.Repeat("x", 128), strings.Repeat("x", 129), "é", "a\n"} {
		f.Add(s)
	}
	pattern := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := plainKey(s), pattern.MatchString(s); got != want {
			t.Errorf("plainKey(%q) = %v, want %v", s, got, want)
		}
	})
}

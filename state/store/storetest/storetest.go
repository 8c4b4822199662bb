// Package storetest is the suite every store.Store passes: what the domain
// above relies on, asked of the store alone. An implementation's own test
// calls Run with a function that makes an empty store.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// Run runs the suite on stores made by open (each call a new, empty home).
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Run("empty", func(t *testing.T) { empty(t, open(t)) })
	t.Run("commit", func(t *testing.T) { commit(t, open(t)) })
	t.Run("list", func(t *testing.T) { list(t, open(t)) })
	t.Run("delete", func(t *testing.T) { deleteTree(t, open(t)) })
	t.Run("events", func(t *testing.T) { events(t, open(t)) })
	t.Run("watch", func(t *testing.T) { watch(t, open(t)) })
	t.Run("lock", func(t *testing.T) { lockOne(t, open(t)) })
	// What doctor, repair and a lock-free reader ask of a store beyond
	// Store, where it offers it.
	if _, ok := open(t).(store.Mender); ok {
		t.Run("mender", func(t *testing.T) { mender(t, open(t)) })
	}
	if _, ok := open(t).(store.Journaled); ok {
		t.Run("journaled", func(t *testing.T) { journaled(t, open(t)) })
	}
}

// mender: Inspect finds the records of a sound home and nothing wrong;
// SetMode gives conch's own modes; a record quarantined is read no more;
// a leftover that is not there is an error.
func mender(t *testing.T, s store.Store) {
	m := s.(store.Mender)
	Commit(t, s, store.Write{Key: "chats/c_1.json", Data: []byte(`{"id":"c_1"}`)}, store.Write{Key: "index.json", Data: []byte(`{}`)})
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	expect := func(key string) store.Expect {
		switch key {
		case "chats":
			return store.Expect{Folder: true, Noun: "the chats' folder"}
		case "chats/c_1.json", "index.json":
			return store.Expect{File: true, Noun: "a record"}
		}
		return store.Expect{}
	}
	in, err := m.Inspect(now, expect)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range in.Damaged {
		if d.Key == "chats/c_1.json" || d.Key == "index.json" || d.Key == "chats" {
			t.Errorf("a sound record found damaged: %+v", d)
		}
	}
	if !slices.Contains(in.Records, "chats/c_1.json") || !slices.Contains(in.Records, "index.json") {
		t.Errorf("inspect's records: %q", in.Records)
	}
	if mode, err := m.SetMode("chats", true); err != nil || mode.Perm() != 0o700 {
		t.Errorf("set mode of a folder: %v %v", mode, err)
	}
	if mode, err := m.SetMode("chats/c_1.json", false); err != nil || mode.Perm() != 0o600 {
		t.Errorf("set mode of a record: %v %v", mode, err)
	}
	where, err := m.Quarantine("chats/c_1.json", now)
	if err != nil || where == "" {
		t.Fatalf("quarantine: %q %v", where, err)
	}
	if data := get(t, s, "chats/c_1.json"); data != nil {
		t.Errorf("a quarantined record is still read: %q", data)
	}
	if again, err := m.Quarantine("index.json", now); err != nil || again == where {
		t.Errorf("a second quarantine at the same time: %q %v (the first went to %q)", again, err, where)
	}
	if err := m.RemoveLeftover("chats/.c_9.json123"); err == nil {
		t.Error("removing a leftover that is not there: no error")
	}
}

// journaled: a new home has no commit cut short, nor an older conch's
// mark, and clearing a mark that is not there is no error.
func journaled(t *testing.T, s store.Store) {
	j := s.(store.Journaled)
	Commit(t, s, store.Write{Key: "index.json", Data: []byte(`{}`)})
	if cut, err := j.CutShort(); err != nil || cut {
		t.Errorf("cut short after a whole commit: %v %v", cut, err)
	}
	if old, err := j.OldMark(); err != nil || old {
		t.Errorf("an old mark in a new home: %v %v", old, err)
	}
	if err := j.ClearOldMark(); err != nil {
		t.Errorf("clearing no mark: %v", err)
	}
}

// Commit commits ws under s's lock, failing t on an error.
func Commit(t *testing.T, s store.Store, ws ...store.Write) {
	t.Helper()
	unlock, err := s.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := s.Commit(ws); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, s store.Store, key string) []byte {
	t.Helper()
	data, err := s.Get(key)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		t.Fatalf("get %s: %v", key, err)
	}
	return data
}

// A store not made yet is not there, lists nothing and has no record.
func empty(t *testing.T, s store.Store) {
	if there, err := s.Exists(); err != nil || there {
		t.Fatalf("a new store exists: %v %v", there, err)
	}
	if _, err := s.Get("chats/c_1.json"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("get in an empty store: %v, want ErrNotFound", err)
	}
	if names, err := s.List("chats"); err != nil || len(names) != 0 {
		t.Fatalf("list in an empty store: %v %v", names, err)
	}
	unlock, err := s.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	if there, err := s.Exists(); err != nil || !there {
		t.Fatalf("a store locked once does not exist: %v %v", there, err)
	}
}

// A commit of several records is read back whole, and a record replaced
// reads as its new bytes.
func commit(t *testing.T, s store.Store) {
	Commit(t, s,
		store.Write{Key: "counters.json", Data: []byte(`{"c":2}`), Class: store.Durable},
		store.Write{Key: "chats/c_1.json", Data: []byte(`{"id":"c_1"}`)},
		store.Write{Key: "chats/c_2.json", Data: []byte(`{"id":"c_2"}`)},
	)
	Commit(t, s, store.Write{Key: "chats/c_1.json", Data: []byte(`{"id":"c_1","title":"new"}`)})
	for key, want := range map[string]string{
		"counters.json":  `{"c":2}`,
		"chats/c_1.json": `{"id":"c_1","title":"new"}`,
		"chats/c_2.json": `{"id":"c_2"}`,
	} {
		if got := get(t, s, key); string(got) != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	// What Get returns is the caller's: changing it changes no record.
	b := get(t, s, "counters.json")
	b[0] = 'X'
	if got := get(t, s, "counters.json"); !bytes.Equal(got, []byte(`{"c":2}`)) {
		t.Errorf("a change to what Get gave changed the record: %q", got)
	}
}

// List names the records in a folder and, with a "/" after, the folders.
func list(t *testing.T, s store.Store) {
	Commit(t, s,
		store.Write{Key: "log/c_1/head.json", Data: []byte(`{}`)},
		store.Write{Key: "log/c_1/000000000001.json", Data: []byte(`{}`), Class: store.Event},
		store.Write{Key: "log/c_2/head.json", Data: []byte(`{}`)},
		store.Write{Key: "index.json", Data: []byte(`{}`)},
	)
	names, err := s.List("log")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"c_1/", "c_2/"}) {
		t.Errorf("list log: %q", names)
	}
	names, _ = s.List("log/c_1")
	slices.Sort(names)
	if !slices.Equal(names, []string{"000000000001.json", "head.json"}) {
		t.Errorf("list log/c_1: %q", names)
	}
	if names, err := s.List("nothing"); err != nil || len(names) != 0 {
		t.Errorf("list of a folder not there: %q %v", names, err)
	}
	// The top of the home lists its records and folders too: store.Copy
	// asks it whether a store is empty.
	names, err = s.List("")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names, "index.json") || !slices.Contains(names, "log/") {
		t.Errorf("list of the top: %q", names)
	}
}

// A deletion takes the record, or the folder and everything in it, in the
// same commit as the writes beside it.
func deleteTree(t *testing.T, s store.Store) {
	Commit(t, s,
		store.Write{Key: "log/c_1/head.json", Data: []byte(`{}`)},
		store.Write{Key: "log/c_1/000000000001.json", Data: []byte(`{}`), Class: store.Event},
		store.Write{Key: "chats/c_1.json", Data: []byte(`{}`)},
		store.Write{Key: "chats/c_2.json", Data: []byte(`{}`)},
	)
	Commit(t, s,
		store.Write{Key: "index.json", Data: []byte(`{"chats":{}}`), Class: store.Durable},
		store.Write{Key: "log/c_1", Delete: true},
		store.Write{Key: "chats/c_1.json", Delete: true},
	)
	for _, key := range []string{"log/c_1/head.json", "log/c_1/000000000001.json", "chats/c_1.json"} {
		if get(t, s, key) != nil {
			t.Errorf("%s is still there", key)
		}
	}
	if get(t, s, "chats/c_2.json") == nil || get(t, s, "index.json") == nil {
		t.Error("a record beside the deleted ones went")
	}
	if names, _ := s.List("log"); len(names) != 0 {
		t.Errorf("the log folder still lists %q", names)
	}
}

// Events are records like the others once committed.
func events(t *testing.T, s store.Store) {
	Commit(t, s,
		store.Write{Key: "log/c_1/000000000001.json", Data: []byte(`{"sequence":1}`), Class: store.Event},
		store.Write{Key: "log/c_1/head.json", Data: []byte(`{"state_version":1}`), Class: store.Durable},
	)
	if got := get(t, s, "log/c_1/000000000001.json"); string(got) != `{"sequence":1}` {
		t.Errorf("event: %q", got)
	}
}

// A watch says when a record it names changes, or one in a folder it
// names, and says nothing of the others.
func watch(t *testing.T, s store.Store) {
	Commit(t, s, store.Write{Key: "chats/c_1.json", Data: []byte(`{}`)}, store.Write{Key: "waits/c_2.json", Data: []byte(`{}`)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := s.Watch(ctx, "chats/c_1.json", "waits/")
	if err != nil {
		t.Fatal(err)
	}
	said := func() bool {
		// A watch is a hint that comes soon; an unrelated change sends
		// nothing, which is asked below by a change that must.
		select {
		case <-ch:
			return true
		case <-time.After(5 * time.Second):
			return false
		}
	}
	Commit(t, s, store.Write{Key: "chats/c_1.json", Data: []byte(`{"a":1}`)})
	if !said() {
		t.Fatal("a change to a watched record said nothing")
	}
	Commit(t, s, store.Write{Key: "waits/c_3.json", Data: []byte(`{}`)})
	if !said() {
		t.Fatal("a change in a watched folder said nothing")
	}
	Commit(t, s, store.Write{Key: "chats/c_9.json", Data: []byte(`{}`)})
	Commit(t, s, store.Write{Key: "chats/c_1.json", Data: []byte(`{"a":2}`)})
	if !said() {
		t.Fatal("a second change to a watched record said nothing")
	}
}

// Lock lets one writer in at a time.
func lockOne(t *testing.T, s store.Store) {
	var mu sync.Mutex
	inside, most := 0, 0
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := s.Lock(0)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			inside++
			most = max(most, inside)
			mu.Unlock()
			time.Sleep(time.Millisecond)
			mu.Lock()
			inside--
			mu.Unlock()
			unlock()
		}()
	}
	wg.Wait()
	if most != 1 {
		t.Fatalf("%d writers held the lock at once", most)
	}
}

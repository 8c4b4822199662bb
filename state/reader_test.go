package state_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/conch-sh/conch/internal/benchhome"
	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
)

// TestReaderAsksFewProcesses: with 19 of the person's chats working in
// its folder, a chat's notes ask whether the process of as many of them
// as its reader lines have room for (and a few it passes over), not of
// all 19: each look is a system call, at every step (issue 25).
func TestReaderAsksFewProcesses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	if err := benchhome.Fill(dir, benchhome.Options{Chats: 50, Peers: 19}); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname() // the filled chats' computer: their processes are looked at
	h, err := state.Open(state.Options{Dir: dir, Now: time.Now, Hostname: host, Getenv: func(string) string { return "" }, Store: store.NewFiles(dir, nil, 0)})
	if err != nil {
		t.Fatal(err)
	}
	looks := 0
	defer state.CountProcessLooks(&looks)()
	var n *state.Notes
	if err := h.View(func(tx *state.View) (err error) { n, err = tx.Notes().For(state.Actor{ID: "c_1"}); return err }); err != nil {
		t.Fatal(err)
	}
	if len(n.Reader) != state.MaxReaderLines {
		t.Fatalf("%d reader lines, want %d: %+v", len(n.Reader), state.MaxReaderLines, n.Reader)
	}
	if most := 2 * state.MaxReaderLines; looks > most {
		t.Errorf("asked after %d processes for %d lines; at most %d", looks, len(n.Reader), most)
	}
}

// fetching is a home's files that say what they were asked to prefetch.
type fetching struct {
	*store.Files
	fetched []string
}

func (f *fetching) Prefetch(keys ...string) { f.fetched = append(f.fetched, keys...) }

// TestReaderPrefetches: on a store that can read side by side (a home on a
// backend), the reader asks for the records of the chats its lines are
// most likely told from before it reads the first: as many as it has
// room for, in the order it reads them, itself not among them.
func TestReaderPrefetches(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	if err := benchhome.Fill(dir, benchhome.Options{Chats: 50, Peers: 19}); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	st := &fetching{Files: store.NewFiles(dir, nil, 0)}
	h, err := state.Open(state.Options{Dir: dir, Now: time.Now, Hostname: host, Getenv: func(string) string { return "" }, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	var n *state.Notes
	if err := h.View(func(tx *state.View) (err error) { n, err = tx.Notes().For(state.Actor{ID: "c_1"}); return err }); err != nil {
		t.Fatal(err)
	}
	if len(st.fetched) != state.MaxReaderLines || slices.Contains(st.fetched, "chats/c_1.json") {
		t.Fatalf("prefetched %q, want %d others' records", st.fetched, state.MaxReaderLines)
	}
	for i, l := range n.Reader {
		if want := "chats/" + l.Chat + ".json"; st.fetched[i] != want {
			t.Errorf("line %d is told from %s, prefetched %q", i, want, st.fetched)
		}
	}
}

// TestListPrefetches: chats list asks, side by side, for the records of
// the working chats it opens, before it opens the first.
func TestListPrefetches(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	if err := benchhome.Fill(dir, benchhome.Options{Chats: 50, Peers: 19}); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	st := &fetching{Files: store.NewFiles(dir, nil, 0)}
	h, err := state.Open(state.Options{Dir: dir, Now: time.Now, Hostname: host, Getenv: func(string) string { return "" }, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	var l *state.ChatList
	if err := h.View(func(tx *state.View) (err error) { l, err = tx.Chats().List(state.Actor{}, false); return err }); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range l.Chats {
		if c.ReplyStarted != nil {
			want = append(want, "chats/"+c.ID+".json")
		}
	}
	if len(want) == 0 || !slices.Equal(st.fetched, want) {
		t.Errorf("prefetched %q, want the working chats' records %q", st.fetched, want)
	}
}

package state_test

import (
	"os"
	"path/filepath"
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

package state_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/state"
	"github.com/conch-sh/conch/state/store"
)

// readOnlyFS is the real file system as a home remounted read-only finds
// it: every file and folder refuses to be written (access(2) says EROFS).
type readOnlyFS struct{ store.OSFS }

func (readOnlyFS) CanUse(p string, dir bool) error { return store.ErrReadOnly }

// TestDoctorReadOnlyHomeOnce (issue 29): conch doctor on a home whose file
// system went read-only says so once, of the home, not once a file.
func TestDoctorReadOnlyHomeOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	h := homeAs(t, dir, 0)
	twoChats(t, h, "", "")
	for i := range 3 {
		if err := h.Update(func(tx *state.Tx) error {
			_, err := tx.Messages().Send(state.Actor{ID: "c_1"}, state.SendIn{To: "c_2", Text: fmt.Sprintf("the build is red (%d)", i)})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	ro, err := state.Open(state.Options{Dir: dir, Now: func() time.Time { return now }, Hostname: "test", FS: readOnlyFS{}})
	if err != nil {
		t.Fatal(err)
	}
	found, err := ro.Doctor(false)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || !strings.Contains(found[0].Problem, "read-only") || found[0].Path != dir {
		t.Fatalf("doctor on a read-only home: %d findings, want one of the home: %+v", len(found), found)
	}
}

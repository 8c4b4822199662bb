package state

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// TestDoctorRepairGoesByKind: --repair does what a finding's Kind says,
// whatever the words of its Problem: a folder's mode is set to 0700 and a
// file's to 0600, and a log whose events are missing is mended once, its
// finding replaced rather than said twice.
func TestDoctorRepairGoesByKind(t *testing.T) {
	h := openAt(t, filepath.Join(t.TempDir(), "home"), nil)
	ids := newChats(t, h, 1)
	if err := BuildLog(h, ids[0], 5, 3, faultNow, time.Second); err != nil {
		t.Fatal(err)
	}
	at := func(rel string) string { return filepath.Join(h.Dir, filepath.FromSlash(rel)) }
	if err := os.Chmod(at("chats"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(at(chatRel(ids[0])), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &doctor{h: h, files: h.store.(store.Mender)}
	found, err := d.check()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[findingKind]int{}
	for i := range found {
		f := &found[i]
		kinds[f.Kind]++
		f.Problem = "said in other words" // repair must not read them
		if f.Kind.unlocked() {
			d.fixUnlocked(f)
		}
	}
	if kinds[findingFolderMode] != 1 || kinds[findingFileMode] != 1 || kinds[findingLogHole] != 1 || len(found) != 3 {
		t.Fatalf("found %+v", found)
	}
	for rel, want := range map[string]os.FileMode{"chats": 0o700, chatRel(ids[0]): 0o600} {
		if fi, err := os.Stat(at(rel)); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want mode %o", rel, fi.Mode().Perm(), err, want)
		}
	}
	if err := h.Update(func(tx *Tx) error { return d.fixLocked(tx, &found) }); err != nil {
		t.Fatal(err)
	}
	holes := 0
	for _, f := range found {
		if f.Kind == findingLogHole {
			holes++
			if f.Repaired == "" {
				t.Errorf("the log hole was not mended: %+v", f)
			}
		}
	}
	if holes != 1 {
		t.Errorf("the log hole is said %d times, want once: %+v", holes, found)
	}
}

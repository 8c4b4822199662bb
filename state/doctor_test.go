package state

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDoctorRepairFaults: conch doctor --repair over a healthy home, with
// each of its file-system calls failed in turn: whatever fails, it moves
// no record aside (a record it could not read is not a bad one), and the
// home is as healthy after as before.
func TestDoctorRepairFaults(t *testing.T) {
	base := filepath.Join(t.TempDir(), "home")
	faultBase(t, base)
	if found, err := openAt(t, base, nil).Doctor(false); err != nil || len(found) > 0 {
		t.Fatalf("the base home is not healthy: %v %v", found, err)
	}
	clean := &faultFS{FS: quickFS{}}
	if _, err := openAt(t, base, clean).Doctor(true); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= clean.calls; n++ {
		dir := filepath.Join(t.TempDir(), "home")
		copyTree(t, base, dir)
		f := &faultFS{FS: quickFS{}, failAt: n}
		h, err := Open(Options{Dir: dir, Now: func() time.Time { return faultNow }, Hostname: "test", FS: f})
		if err != nil {
			continue // the config could not be read: nothing ran
		}
		found, _ := h.Doctor(true)
		for _, x := range found {
			if strings.HasPrefix(x.Repaired, "quarantined") || strings.HasPrefix(x.Repaired, "moved") {
				t.Errorf("call %d (%v) failing: %s: %s → %s", n, f.failed, x.Path, x.Problem, x.Repaired)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "quarantine")); err == nil {
			t.Errorf("call %d (%v) failing: something was quarantined", n, f.failed)
		}
		if after, err := openAt(t, dir, nil).Doctor(false); err != nil || len(after) > 0 {
			t.Errorf("call %d (%v) failing: the home is not healthy after: %v %v", n, f.failed, after, err)
		}
	}
}

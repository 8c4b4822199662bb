package state

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/conch-sh/conch/lock"
)

// TestLockTimeoutIsState: a change that cannot have the home's lock in
// its time fails with state's ErrLockTimeout, its words naming the lock,
// so cli tells a locked home without knowing how the store locks.
func TestLockTimeoutIsState(t *testing.T) {
	dir := t.TempDir()
	h, err := Open(Options{Dir: dir, LockWait: 50 * time.Millisecond, Hostname: "test"})
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := lock.Exclusive(context.Background(), filepath.Join(dir, "conch.lock"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ran := false
	err = h.Update(func(tx *Tx) error { ran = true; return nil })
	if !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("Update under another's lock: %v, want ErrLockTimeout", err)
	}
	var te *lock.TimeoutError
	if !errors.As(err, &te) || te.Path != filepath.Join(dir, "conch.lock") {
		t.Fatalf("the error does not name the lock: %v", err)
	}
	if ran {
		t.Fatal("the change ran without the lock")
	}
	if errors.Is(lockError(errors.New("disk on fire")), ErrLockTimeout) {
		t.Fatal("another error of the lock is taken for a timeout")
	}
}

package lock

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExclusiveWaitsThenNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conch.lock")
	unlock, err := Exclusive(context.Background(), path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Exclusive(context.Background(), path, 30*time.Millisecond)
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("second lock: got %v, want a TimeoutError", err)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("the error %q does not name the lock file", err)
	}
	unlock()
	unlock2, err := Exclusive(context.Background(), path, 30*time.Millisecond)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	unlock2()
}

func TestExclusiveHandsOverToAWaiter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conch.lock")
	unlock, err := Exclusive(context.Background(), path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		u, err := Exclusive(context.Background(), path, 5*time.Second)
		if err == nil {
			u()
		}
		got <- err
	}()
	unlock()
	if err := <-got; err != nil {
		t.Fatalf("the waiter did not get the lock: %v", err)
	}
}

// TestAbandonedWaitLetsGo: a wait that timed out must not keep the lock if
// the kernel hands it over later.
func TestAbandonedWaitLetsGo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conch.lock")
	unlock, err := Exclusive(context.Background(), path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Exclusive(context.Background(), path, 20*time.Millisecond); err == nil {
		t.Fatal("a held lock was had twice")
	}
	unlock()
	// The abandoned waiter may take the lock for a moment and let go:
	// a later caller gets it well within its wait.
	u, err := Exclusive(context.Background(), path, 2*time.Second)
	if err != nil {
		t.Fatalf("after the abandoned wait: %v", err)
	}
	u()
}

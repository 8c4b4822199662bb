package natsstore

import (
	"context"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store/natsstore/natstest"
)

// The lock's wait whose bucket cannot be bound (its node lost, the link
// gone) is an error, not a nil bucket's panic.
func TestAwaitLockWithoutBucket(t *testing.T) {
	srv := natstest.Start(t)
	a, err := Open(Options{URL: srv.URL, Home: "await"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	unlock, err := a.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	b, err := Open(Options{URL: srv.URL, Home: "await", Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	b.Close() // binding now fails, as with the node that served it lost
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := b.awaitLock(ctx); err == nil {
		t.Fatal("the lock's wait without its bucket took the lock")
	}
}

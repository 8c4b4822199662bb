// Package lock guards conch's records with advisory locks on lock files
// kept beside the data. It never locks a data file (a rename replaces it),
// never deletes a lock file, and never waits without bound.
package lock

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// DefaultWait is how long a command waits for a lock before it gives up.
const DefaultWait = 10 * time.Second

// TimeoutError says which lock file could not be had in time.
type TimeoutError struct {
	Path   string
	Waited time.Duration
}

// Timeout says it is a timeout, as net.Error's does: a caller above the
// store tells a lock not had in time without importing this package.
func (e *TimeoutError) Timeout() bool { return true }

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("lock %s not had in %s: another conch command holds it; try again", e.Path, e.Waited.Round(time.Millisecond))
}

// The states of a blocked lock call, between the caller and the goroutine
// that waits in the kernel.
const (
	waiting int32 = iota
	taken
	abandoned
)

// Exclusive takes the lock file at path, creating it (0600) in its folder,
// which the caller has made, and
// returns the function that releases it. It waits at most wait.
//
// A lock that is busy is waited for in the kernel (a blocking flock), not by
// trying again and again: the waiter sleeps until the holder lets go, and
// under contention no waiter starves behind others that poll faster. If the
// wait runs out first, the call returns a TimeoutError and the kernel wait
// is abandoned: should it get the lock after all, it lets go at once.
//
// Releasing closes the lock file whatever the unlock said: the kernel lets
// go of a lock whose file is closed, so a failed unlock cannot leave the
// lock held by this process, and a later Exclusive in the same command
// does not wait for itself.
func Exclusive(ctx context.Context, path string, wait time.Duration) (unlock func(), err error) {
	f, err := open(path)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	ok, err := f.tryLock()
	if err != nil {
		f.release()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if ok {
		return f.release, nil
	}
	var state atomic.Int32
	got := make(chan error, 1)
	go func() {
		err := f.lock()
		if !state.CompareAndSwap(waiting, taken) {
			// The caller gave up: let go of what it no longer wants.
			f.release()
			return
		}
		got <- err
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	var gaveUp error
	select {
	case err := <-got:
		if err != nil {
			f.release()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		return f.release, nil
	case <-timer.C:
		gaveUp = &TimeoutError{Path: path, Waited: wait}
	case <-ctx.Done():
		gaveUp = fmt.Errorf("lock %s: %w", path, ctx.Err())
	}
	if state.CompareAndSwap(waiting, abandoned) {
		return nil, gaveUp
	}
	// The lock came at the very moment the wait ran out: take it.
	if err := <-got; err != nil {
		f.release()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return f.release, nil
}

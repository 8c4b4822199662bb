// Package lock guards conch's records with advisory locks on lock files
// kept beside the data. It never locks a data file (a rename replaces it),
// never deletes a lock file, and never waits without bound.
package lock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// DefaultWait is how long a command waits for a lock before it gives up.
const DefaultWait = 10 * time.Second

// retryDelay is the pause between two tries: the waiting process sleeps, it
// does not spin.
const retryDelay = 2 * time.Millisecond

// TimeoutError says which lock file could not be had in time.
type TimeoutError struct {
	Path   string
	Waited time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("lock %s not had in %s: another conch command holds it; try again", e.Path, e.Waited.Round(time.Millisecond))
}

// Exclusive takes the lock file at path, creating it (0600) if needed, and
// returns the function that releases it. It waits at most wait.
func Exclusive(ctx context.Context, path string, wait time.Duration) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	fl := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, retryDelay)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if !ok {
		return nil, &TimeoutError{Path: path, Waited: wait}
	}
	return func() { _ = fl.Unlock() }, nil
}

package store

import (
	"errors"
	"testing"
	"time"
)

// TestRetried: Windows's rename is tried again while another program
// holds the file (a transient error), given up on at once for any other
// error, and given up on with the last error once patience is spent.
func TestRetried(t *testing.T) {
	busy, gone := errors.New("held by another program"), errors.New("no such file")
	transient := func(err error) bool { return err == busy }
	fails := func(errs ...error) (func() error, *int) {
		n := 0
		return func() error {
			n++
			if n <= len(errs) {
				return errs[n-1]
			}
			return nil
		}, &n
	}
	op, n := fails(busy, busy, busy)
	if err := retried(op, transient, time.Minute); err != nil || *n != 4 {
		t.Errorf("busy thrice: %v after %d tries; want success at the fourth", err, *n)
	}
	op, n = fails(busy, gone, busy)
	if err := retried(op, transient, time.Minute); err != gone || *n != 2 {
		t.Errorf("a lasting error: %v after %d tries; want it at the second", err, *n)
	}
	op, n = fails(busy, busy)
	if err := retried(op, transient, 0); err != busy || *n != 1 {
		t.Errorf("no patience: %v after %d tries; want the first error", err, *n)
	}
}

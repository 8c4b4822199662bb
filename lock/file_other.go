//go:build !unix

package lock

import (
	"os"
	"sync"

	"github.com/gofrs/flock"
)

// file is an open lock file.
type file struct {
	fl   *flock.Flock
	once sync.Once
}

func open(path string) (*file, error) {
	return &file{fl: flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o600))}, nil
}

func (l *file) tryLock() (bool, error) { return l.fl.TryLock() }
func (l *file) lock() error            { return l.fl.Lock() }
func (l *file) release()               { l.once.Do(func() { _ = l.fl.Unlock() }) }

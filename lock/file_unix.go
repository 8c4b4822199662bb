//go:build unix

package lock

import (
	"errors"
	"os"
	"sync"
	"syscall"
)

// file is an open lock file.
type file struct {
	f    *os.File
	once sync.Once
}

func open(path string) (*file, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	return &file{f: f}, nil
}

func (l *file) flock(how int) error {
	for {
		err := syscall.Flock(int(l.f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

func (l *file) tryLock() (bool, error) {
	err := l.flock(syscall.LOCK_EX | syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

func (l *file) lock() error { return l.flock(syscall.LOCK_EX) }

// release unlocks and closes, once. The close is what matters: an unlock
// that failed is made good by it.
func (l *file) release() {
	l.once.Do(func() {
		_ = l.flock(syscall.LOCK_UN)
		_ = l.f.Close()
	})
}

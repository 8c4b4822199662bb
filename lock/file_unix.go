//go:build unix

package lock

import (
	"errors"
	"io/fs"
	"sync"
	"syscall"
)

// file is an open lock file. It is a bare descriptor, not an *os.File: an
// os.File would start the runtime's poller (an epoll instance, an event
// descriptor, four fcntl calls) for a file no one reads, in every command.
type file struct {
	fd   int
	once sync.Once
}

func open(path string) (*file, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_CREAT|syscall.O_RDWR|syscall.O_CLOEXEC, 0o600)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return &file{fd: fd}, nil
	}
}

func (l *file) flock(how int) error {
	for {
		err := syscall.Flock(l.fd, how)
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
		_ = syscall.Close(l.fd)
	})
}

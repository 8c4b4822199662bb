//go:build unix

package proc

import (
	"io/fs"
	"syscall"
)

// read reads a whole /proc file with plain system calls: os.ReadFile would
// also offer the file to the runtime's poller, which turns it away, five
// calls more for every read, and a step climbs up to four of them. A
// /proc file's size reads as 0, so there is no stat either.
func read(name string) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	data := make([]byte, 0, 512)
	for {
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		case n == 0:
			return data, nil
		}
		data = data[:len(data)+n]
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

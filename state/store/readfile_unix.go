//go:build unix

package store

import (
	"io/fs"
	"syscall"
)

// ReadFile reads a whole file with plain system calls. os.ReadFile would
// also offer the file to the runtime's poller, which turns a regular file
// away: five calls more for every record read, which a list of busy chats
// pays a dozen times over.
func ReadFile(name string) ([]byte, error) {
	fd, err := open(name, syscall.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	regular := st.Mode&syscall.S_IFMT == syscall.S_IFREG
	if st.Size > MaxRecord {
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge}
	}
	// One byte past the size, so that the read which says the end comes
	// without growing the buffer; a file that grew meanwhile still reads
	// whole.
	data := make([]byte, 0, max(int(st.Size)+1, 512))
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
		if len(data) > MaxRecord {
			return nil, &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge}
		}
		if regular && st.Size > 0 && int64(len(data)) == st.Size && len(data) < cap(data) {
			// A regular file that gave all its size and less than was
			// asked is at its end: no read more to hear it say so.
			return data, nil
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// readAt reads the parts of name at offs into bufs, with plain system
// calls, as ReadFile reads.
func readAt(name string, offs []int64, sizes []int) ([][]byte, error) {
	fd, err := open(name, syscall.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	parts := makeParts(sizes)
	for i, b := range parts {
		got := 0
		for got < len(b) {
			n, err := syscall.Pread(fd, b[got:], offs[i]+int64(got))
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				return nil, &fs.PathError{Op: "read", Path: name, Err: err}
			}
			if n == 0 {
				break // the file's end
			}
			got += n
		}
		parts[i] = b[:got]
	}
	return parts, nil
}

// writeAt writes data at off in name, made if need be, with plain system
// calls, as ReadFile reads.
func writeAt(name string, data []byte, off int64) error {
	fd, err := open(name, syscall.O_WRONLY|syscall.O_CREAT, 0o600)
	if err != nil {
		return err
	}
	for len(data) > 0 {
		n, err := syscall.Pwrite(fd, data, off)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			_ = syscall.Close(fd)
			return &fs.PathError{Op: "write", Path: name, Err: err}
		}
		data, off = data[n:], off+int64(n)
	}
	if err := syscall.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: name, Err: err}
	}
	return nil
}

// open opens name with plain system calls (close on exec), again when a
// signal cut the call short.
func open(name string, flag int, perm uint32) (int, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, perm)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return -1, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return fd, nil
	}
}

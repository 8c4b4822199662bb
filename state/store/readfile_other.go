//go:build !unix

package store

import (
	"io"
	"io/fs"
	"os"
)

func ReadFile(name string) ([]byte, error) {
	f, err := openRead(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxRecord+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxRecord {
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge}
	}
	return data, nil
}

// readAt reads the parts of name at offs, of sizes.
func readAt(name string, offs []int64, sizes []int) ([][]byte, error) {
	f, err := openRead(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	parts := makeParts(sizes)
	for i, b := range parts {
		n, err := f.ReadAt(b, offs[i])
		if err != nil && err != io.EOF {
			return nil, err
		}
		parts[i] = b[:n]
	}
	return parts, nil
}

// writeAt writes data at off in name, made if need be.
func writeAt(name string, data []byte, off int64) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(data, off); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

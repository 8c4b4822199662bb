//go:build !unix

package store

import (
	"io"
	"io/fs"
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

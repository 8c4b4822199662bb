package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/conch-sh/conch/state"
)

// LookAt reads what was appended to an adopted file since its cursor:
// whole rows only, at most state.ScanCap bytes, and the rows a person
// typed among them. A row still being written waits
// for the next look; no byte is ever skipped.
func LookAt(ad state.Adoption) state.Look {
	l := state.Look{Chat: ad.Chat, Harness: ad.Harness, Title: Title(ad.Harness), File: ad.File, From: ad.Offset, Next: ad.Offset}
	f, err := os.Open(ad.File)
	if errors.Is(err, fs.ErrNotExist) {
		l.Missing = true
		return l
	}
	if err != nil {
		l.Err = unwrapPath(err)
		return l
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		l.Err = err
		return l
	}
	from := ad.Offset
	if st.Size() < from {
		l.Restarted, from = true, 0
		l.Next = 0
	}
	n := st.Size() - from
	if n > state.ScanCap {
		n = state.ScanCap
	}
	data := make([]byte, n)
	got, err := io.ReadFull(io.NewSectionReader(f, from, n), data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		l.Err = err
		return l
	}
	data = data[:got]
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		l.Blocked = int64(got) == state.ScanCap
		return l
	}
	l.Data = data[:end+1]
	l.Typed = humanTexts(ad.Harness, l.Data)
	l.Next = from + int64(end+1)
	return l
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// SessionFile is the size of a session file that can be adopted, or why
// it cannot: it must be there, and a regular file.
func SessionFile(file string) (int64, error) {
	st, err := os.Stat(file)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return 0, fmt.Errorf("%s: %v", file, err)
	}
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is not a regular file", file)
	}
	return st.Size(), nil
}

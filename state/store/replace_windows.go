package store

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/windows"
)

// On Windows renameio has no TempFile: the temporary file is conch's own,
// renamed over its target by os.Rename (MoveFileEx, replacing what is
// there: one step on NTFS, within one volume, as a home is).

// pendingFile is a temporary file that replaces its target whole.
type pendingFile struct {
	*os.File
	path string
	done bool // renamed, or cleaned up
}

// tempFile is a new temporary file in dir that will replace path.
func tempFile(dir, path string) (*pendingFile, error) {
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+"*")
	if err != nil {
		return nil, err
	}
	return &pendingFile{File: f, path: path}, nil
}

// Cleanup removes the temporary file of a write that did not replace its
// target; after a replacement, it does nothing.
func (t *pendingFile) Cleanup() error {
	if t.done {
		return nil
	}
	t.done = true
	_ = t.File.Close()
	return os.Remove(t.Name())
}

// CloseAtomicallyReplace syncs the file, closes it and renames it over
// its target.
func (t *pendingFile) CloseAtomicallyReplace() error {
	if err := t.Sync(); err != nil {
		return err
	}
	if err := t.File.Close(); err != nil {
		return err
	}
	if err := rename(t.Name(), t.path); err != nil {
		return err
	}
	t.done = true
	return nil
}

// rename replaces to with from, in one step. A file another program holds
// open without sharing its deletion (a virus scanner, the search indexer)
// cannot be replaced for a moment: the rename is tried again, for up to
// two seconds.
func rename(from, to string) error {
	return retried(func() error { return os.Rename(from, to) }, func(err error) bool {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)
	}, 2*time.Second)
}

// syncDir does nothing: Windows cannot sync a folder (NTFS journals the
// names in it itself).
func syncDir(dir string) error { return nil }

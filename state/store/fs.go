package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// FS is every file-system call Files makes. The real one is
// OSFS; tests put a faulty one in its place to fail the Nth call.
type FS interface {
	ReadFile(name string) ([]byte, error)
	// WriteFile replaces name whole: a temporary file in the same folder,
	// written, synced when durable, and renamed over name. Readers see the
	// old file or the new one, never half. It fails having changed nothing
	// or succeeds having replaced the file; the folder is not synced (the
	// commit syncs each folder it wrote in once, with SyncDir).
	WriteFile(name string, data []byte, durable bool) error
	// SyncDir syncs a folder, so that the renames and removals in it
	// survive a power cut.
	SyncDir(name string) error
	// WriteAt writes data at off in name, made (empty, 0600) if it is not
	// there: in place, with no temporary file, no rename and no sync. It
	// writes a record's overlay only (live.go).
	WriteAt(name string, data []byte, off int64) error
	// ReadAt reads, opening name once, up to sizes[i] bytes at offs[i]
	// into the i-th part it returns: a part that runs past the file's end
	// comes back short, and one past it empty. The parts' memory is made
	// once the file is open, so a file that is not there costs none. It
	// reads a record's overlay, whose two slots lie 16 KiB apart
	// (live.go), without what lies between them.
	ReadAt(name string, offs []int64, sizes []int) ([][]byte, error)
	Remove(name string) error
	RemoveAll(name string) error
	Rename(from, to string) error
	ReadDir(name string) ([]fs.DirEntry, error)
	MkdirAll(name string) error
	Stat(name string) (fs.FileInfo, error)
}

// OSFS is the real file system.
type OSFS struct{}

func (OSFS) ReadFile(name string) ([]byte, error)       { return ReadFile(name) }
func (OSFS) Remove(name string) error                   { return os.Remove(name) }
func (OSFS) RemoveAll(name string) error                { return os.RemoveAll(name) }
func (OSFS) Rename(from, to string) error               { return rename(from, to) }
func (OSFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (OSFS) MkdirAll(name string) error                 { return os.MkdirAll(name, 0o700) }
func (OSFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (OSFS) SyncDir(name string) error                  { return syncDir(name) }

func (OSFS) WriteAt(name string, data []byte, off int64) error { return writeAt(name, data, off) }

func (OSFS) ReadAt(name string, offs []int64, sizes []int) ([][]byte, error) {
	return readAt(name, offs, sizes)
}

func (OSFS) WriteFile(name string, data []byte, durable bool) error {
	dir := filepath.Dir(name)
	t, err := tempFile(dir, name)
	if errors.Is(err, fs.ErrNotExist) {
		// The record's folder is made on its first write only, not
		// looked up again at every write.
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		if durable {
			// A new folder's name is in the folders above it: synced
			// now (two levels: a chat's log folder and log/), as the
			// commit syncs only the folders its records are in.
			for d, n := filepath.Dir(dir), 0; n < 2 && d != filepath.Dir(d); d, n = filepath.Dir(d), n+1 {
				if err := syncDir(d); err != nil {
					return err
				}
			}
		}
		t, err = tempFile(dir, name)
	}
	if err != nil {
		return err
	}
	// Cleanup removes the temporary file of a write that failed. A
	// rename done here, not by renameio, is not known to it: after one,
	// Cleanup would close the file again and try to remove what is gone.
	renamed := false
	defer func() {
		if !renamed {
			_ = t.Cleanup()
		}
	}()
	if err := t.Chmod(0o600); err != nil {
		return err
	}
	if _, err := t.Write(data); err != nil {
		return err
	}
	if durable {
		// CloseAtomicallyReplace syncs the file before the rename.
		return t.CloseAtomicallyReplace()
	}
	// Live state (steps) need not survive a power cut: skip the syncs.
	if err := t.File.Close(); err != nil {
		return err
	}
	if err := rename(t.Name(), name); err != nil {
		return err
	}
	renamed = true
	return nil
}

// makeParts makes ReadAt's parts, of sizes, in one piece of memory: each
// part's capacity ends where the next begins.
func makeParts(sizes []int) [][]byte {
	n := 0
	for _, s := range sizes {
		n += s
	}
	buf := make([]byte, n)
	parts := make([][]byte, len(sizes))
	for i, s := range sizes {
		parts[i], buf = buf[:s:s], buf[s:]
	}
	return parts
}

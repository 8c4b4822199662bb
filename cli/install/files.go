package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// Link follows a symbolic link to the file it names, so that a settings
// file kept elsewhere (a dotfiles repository) is changed there, not
// replaced by a file of its own.
func Link(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// read is a file's bytes and whether it is there; a file that is there
// but cannot be read is an error.
func read(path string) ([]byte, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("cannot read %s: %v", path, err)
	}
	return data, true, nil
}

// Backup keeps a file as it was (data) beside it, under a name of its own
// (path.bak-TIME, then -2, -3, … when that is taken), and says the name.
func (r *Run) Backup(path string, data []byte) (string, error) {
	base := path + ".bak-" + r.Now().UTC().Format("20060102T150405Z")
	name := base
	for i := 2; ; i++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			name = fmt.Sprintf("%s-%d", base, i)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("cannot keep %s as it was: %v; nothing changed", path, err)
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", fmt.Errorf("cannot keep %s as it was: %v; nothing changed", path, err)
		}
		return name, nil
	}
}

// WriteWhole replaces a file whole (a temporary file renamed over it),
// keeping its permissions; a new one is made 0600 (settings files can
// hold keys), in folders made as needed.
func WriteWhole(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	if err := renameio.WriteFile(path, data, 0o600, renameio.WithExistingPermissions()); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
}

// replace writes out over the file at path, which held data (exists:
// it was there at all), keeping the old one as a backup first; res
// records it.
func (r *Run) replace(res *Result, path string, data []byte, exists bool, out []byte) error {
	if exists {
		var err error
		if res.Backup, err = r.Backup(path, data); err != nil {
			return err
		}
	}
	if err := WriteWhole(path, out); err != nil {
		return err
	}
	res.Changed = true
	return nil
}

// Edit changes one file with edit, which gets its bytes (nil and exists
// false when there is none) and returns the new ones and whether anything
// changed: the file is then kept as it was beside it and written whole.
// An error from edit leaves the file untouched; it is said as
// "PATH: ERROR; nothing changed".
func (r *Run) Edit(res *Result, edit func(data []byte, exists bool) ([]byte, bool, error)) error {
	res.File = Link(res.File)
	data, exists, err := read(res.File)
	if err != nil {
		return err
	}
	out, changed, err := edit(data, exists)
	var p predicate
	if errors.As(err, &p) {
		return fmt.Errorf("%s %v; nothing changed", res.File, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %v; nothing changed", res.File, err)
	}
	if !changed {
		return nil
	}
	return r.replace(res, res.File, data, exists, out)
}

// predicate is an edit's error said of the file, after its name with a
// space ("PATH is not TOML: …"), not after a colon.
type predicate struct{ error }

// OwnFile is a file conch writes whole and owns (an OpenCode plugin, a
// Pi extension): put in, it holds data exactly; taken out, it is gone.
// A file there already that is not conch's (it lacks mark, a line of
// data that says conch wrote it) is a person's: it is left as it is,
// and the install fails. A file of conch's that differs (an older
// conch's, or edited since) is kept as a backup, then replaced or
// removed.
func (r *Run) OwnFile(path string, data []byte, mark string, events ...string) (*Result, error) {
	res := &Result{File: Link(path), Events: append([]string{}, events...)}
	old, exists, err := read(res.File)
	if err != nil {
		return nil, err
	}
	if exists && !bytes.Contains(old, []byte(mark)) {
		return nil, fmt.Errorf("%s is not conch's (it has no %q); nothing changed", res.File, mark)
	}
	switch {
	case r.Remove && !exists:
		return res, nil
	case r.Remove:
		if !bytes.Equal(old, data) { // changed since conch wrote it: kept
			if res.Backup, err = r.Backup(res.File, old); err != nil {
				return nil, err
			}
		}
		if err := os.Remove(res.File); err != nil {
			return nil, fmt.Errorf("cannot remove %s: %v", res.File, err)
		}
		res.Changed = true
		return res, nil
	case exists && bytes.Equal(old, data):
		return res, nil
	}
	if !bytes.Contains(data, []byte(mark)) {
		return nil, fmt.Errorf("%s: conch's file would not carry its mark %q; nothing changed", res.File, mark)
	}
	if err := r.replace(res, res.File, old, exists, data); err != nil {
		return nil, err
	}
	return res, nil
}

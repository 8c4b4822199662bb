package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// backup keeps a file as it was (data) beside it, under a name of its own
// (path.bak-TIME, then -2, -3, … when that is taken), and says the name.
func (r *Run) backup(path string, data []byte) (string, error) {
	if r.kept[path] {
		return "", nil // kept as it was before this run already
	}
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
		if r.kept != nil {
			r.kept[path] = true
		}
		return name, nil
	}
}

// writeWhole replaces a file whole (a temporary file renamed over it),
// keeping its permissions; a new one is made 0600 (settings files can
// hold keys), in folders made as needed.
func writeWhole(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	if err := replaceFile(path, data); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
}

// replace writes out over the file at path, which held data (exists:
// it was there at all), keeping the old one as a backup first; res
// records it.
func (r *Run) replace(res *Result, path string, data []byte, exists bool, out []byte) error {
	if r.dry {
		res.Changed = true
		return nil
	}
	if exists {
		var err error
		if res.Backup, err = r.backup(path, data); err != nil {
			return err
		}
	}
	if err := writeWhole(path, out); err != nil {
		return err
	}
	if !exists && r.kept != nil {
		r.kept[path] = true // it was not there: nothing to keep
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
	var p Predicate
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

// removeLeaving takes conch's part out of the file res names (merge does
// it to the file's bytes): a file left holding nothing but what conch
// itself would start one with (bare says) was conch's alone, and is
// removed, with no backup of conch's own words; any other is edited as
// Edit does, kept as it was beside it.
func (r *Run) removeLeaving(res *Result, merge func(data []byte) ([]byte, bool, error), bare func(out []byte) bool) error {
	fi, err := os.Lstat(res.File)
	linked := err == nil && fi.Mode()&fs.ModeSymlink != 0
	res.File = Link(res.File)
	data, exists, err := read(res.File)
	if err != nil || !exists {
		return err
	}
	out, changed, err := merge(data)
	var p Predicate
	if errors.As(err, &p) {
		return fmt.Errorf("%s %v; nothing changed", res.File, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %v; nothing changed", res.File, err)
	}
	if !changed {
		return nil
	}
	if !bare(out) || linked {
		// Another's part is in it, or it is a link's (a dotfiles
		// repository's file, which a removal would leave dangling).
		return r.replace(res, res.File, data, true, out)
	}
	res.Changed = true
	res.Notes = append(res.Notes, OwnRemoved{})
	if r.dry {
		return nil
	}
	if err := os.Remove(res.File); err != nil {
		return fmt.Errorf("cannot remove %s: %v", res.File, err)
	}
	return nil
}

// Predicate is an edit's error said of the file, after its name with a
// space ("PATH is not TOML: …"), not after a colon.
type Predicate struct{ Err error }

func (p Predicate) Error() string { return p.Err.Error() }

// Own is a file conch writes whole and owns (an OpenCode plugin, a Pi
// extension).
type Own struct {
	Data   []byte   // the file as this install writes it
	Mark   string   // its first line, whatever else changes: how conch knows its own file
	Events []string // what it reports, for install's words
	// Written says whether old is a file conch wrote and nobody changed
	// since (one for another --conch, say): it then needs no backup. Nil:
	// only Data itself is.
	Written func(old []byte) bool
}

// OwnFile puts a file conch owns at path, or with r.Remove takes it out:
// put in, it holds f.Data exactly (again changes nothing); taken out, it
// is gone. A file there already whose first line is not f.Mark is not
// conch's: an install fails and leaves it as it is, a removal leaves it
// and says so. A file of conch's that changed since conch wrote it is
// kept beside it as a backup first.
func (r *Run) OwnFile(path string, f Own) (*Result, error) {
	res := &Result{File: Link(path), Events: append([]string{}, f.Events...)}
	if !bytes.HasPrefix(f.Data, []byte(f.Mark+"\n")) {
		return nil, fmt.Errorf("%s: conch's file would not start with its mark %q; nothing changed", res.File, f.Mark)
	}
	old, exists, err := read(res.File)
	if err != nil {
		return nil, err
	}
	ours := exists && bytes.HasPrefix(old, []byte(f.Mark+"\n"))
	switch {
	case !exists && r.Remove:
		return res, nil
	case exists && !ours && r.Remove:
		res.Notes = append(res.Notes, NotConchs{})
		return res, nil
	case exists && !ours:
		return nil, fmt.Errorf("%s is there and is not conch's (its first line is not conch's); nothing changed", res.File)
	case !r.Remove && bytes.Equal(old, f.Data):
		return res, nil
	}
	if r.dry {
		res.Changed = true
		return res, nil
	}
	written := f.Written
	if written == nil {
		written = func(old []byte) bool { return bytes.Equal(old, f.Data) }
	}
	if exists && !written(old) {
		if res.Backup, err = r.backup(res.File, old); err != nil {
			return nil, err
		}
	}
	if r.Remove {
		if err := os.Remove(res.File); err != nil {
			return nil, fmt.Errorf("cannot remove %s: %v", res.File, err)
		}
	} else if err := writeWhole(res.File, f.Data); err != nil {
		return nil, err
	}
	res.Changed = true
	return res, nil
}

// PruneDirs removes dir, then each folder above it up to top (not top
// itself), while it is an empty folder (a link is left): the folders an
// install made to hold a file its removal has taken out again. It says
// the folders it removed. (A folder holding nothing is nothing a
// repository can keep, so one the person made empty is no loss.)
func (r *Run) PruneDirs(dir, top string) []string {
	if r.dry {
		return nil
	}
	var gone []string
	top = filepath.Clean(top)
	for d := filepath.Clean(dir); d != top && strings.HasPrefix(d, top+string(filepath.Separator)); d = filepath.Dir(d) {
		fi, err := os.Lstat(d)
		if err != nil || !fi.IsDir() || os.Remove(d) != nil {
			break // not there, not a folder, or not empty
		}
		gone = append(gone, d)
	}
	return gone
}

// RepoRoot is the top folder of the git repository dir is in ("" for
// none): the folder that has .git, a folder or (in a worktree) a file.
func RepoRoot(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

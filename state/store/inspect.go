package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// What Inspect finds wrong with a file of the home.
type Damage int

const (
	DamageOpen       Damage = iota // this user cannot use it, or it cannot be read
	DamageFolderMode               // a folder's mode is not 0700
	DamageFileMode                 // a file's mode is not 0600
	DamageMisplaced                // it stands where something else belongs
	DamageOldMark                  // an older conch's commit, cut short
	DamageJournal                  // a commit journal left behind
	DamageTemp                     // a temporary file left over by a writer that stopped
)

// Damaged is one file Inspect found wrong.
type Damaged struct {
	Key     string
	Damage  Damage
	Problem string
}

// Expect is what belongs at a key, as the domain says.
type Expect struct {
	Folder, File bool   // a folder belongs there, or a file (neither: either, or not conch's)
	Noun         string // what belongs there, for the words ("a chat record")
}

// Inspection is what Inspect found: the files that are wrong, and the
// records (plain .json files) for the domain to read and judge.
type Inspection struct {
	Damaged []Damaged
	Records []string
}

// staleAfter is how old a temporary file or a journal must be before it
// counts as left over: younger ones may belong to a command writing now.
const staleAfter = time.Minute

// Inspect walks the home's files, itself, independently of the code that
// writes them (through a Dir that is a symbolic link, the folder behind
// it), and says what is wrong with them as files: a mode, a folder where
// a file belongs or the other way round, a link, what this user cannot
// use, what a writer that stopped left. expect says what belongs where.
// A home that is not there is ErrNotFound.
func (h *Files) Inspect(now time.Time, expect func(key string) Expect) (*Inspection, error) {
	root, err := filepath.EvalSymlinks(h.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("home %s: %w", h.Dir, err)
	}
	in := &Inspection{}
	add := func(key string, d Damage, format string, args ...any) {
		in.Damaged = append(in.Damaged, Damaged{Key: key, Damage: d, Problem: fmt.Sprintf(format, args...)})
	}
	// A home on a file system mounted read-only is one finding, said of
	// the home, not one for every file in it (issue 29).
	readOnly := false
	usable := func(key, p string, dir bool) {
		if readOnly {
			return
		}
		err := h.canUse(p, dir)
		switch {
		case errors.Is(err, ErrReadOnly):
			readOnly = true
			add(".", DamageOpen, "%v", err)
		case err != nil:
			add(key, DamageOpen, "%v", err)
		}
	}
	err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		key := filepath.ToSlash(rel)
		if err != nil {
			add(key, DamageOpen, "%s", err.Error())
			return nil
		}
		if key == "quarantine" || key == "worktrees" {
			// What repair moved aside, and the tasks' own work: not records.
			return filepath.SkipDir
		}
		want := expect(key)
		info, err := e.Info()
		if err != nil {
			return nil // gone since the folder was read
		}
		if e.Type()&fs.ModeSymlink != 0 {
			// conch makes none; a link would send its writes elsewhere,
			// and a chmod through it would change what it points to.
			add(key, DamageMisplaced, "a symbolic link where conch keeps its own files")
			return nil
		}
		if e.IsDir() {
			if want.File {
				add(key, DamageMisplaced, "a folder where %s belongs", want.Noun)
				return filepath.SkipDir
			}
			if m := info.Mode().Perm(); hasModes && (m&0o077 != 0 || m&0o700 != 0o700) {
				add(key, DamageFolderMode, "folder mode %o, want 0700", m)
			} else {
				usable(key, p, true)
			}
			return nil
		}
		if want.Folder {
			add(key, DamageMisplaced, "a file where a folder belongs")
			return nil
		}
		if !info.Mode().IsRegular() {
			add(key, DamageMisplaced, "not a plain file (%s) where conch keeps its own files", info.Mode().Type())
			return nil
		}
		if m := info.Mode().Perm(); hasModes && (m&0o077 != 0 || m&0o600 != 0o600) {
			add(key, DamageFileMode, "file mode %o, want 0600", m)
		} else {
			usable(key, p, false)
		}
		base := e.Name()
		switch {
		case key == OldMarkName:
			if now.Sub(info.ModTime()) > staleAfter {
				add(key, DamageOldMark, "a commit was cut short (a writer stopped half way): the index may not sum up the records")
			}
		case key == JournalName:
			if now.Sub(info.ModTime()) > staleAfter {
				add(key, DamageJournal, "%s", JournalCut)
			}
		case strings.HasSuffix(base, ".lock"):
		case isOverlay(p, base):
			// A record's overlay (live.go): its record's, not a record.
		case strings.HasPrefix(base, "."):
			if now.Sub(info.ModTime()) > staleAfter {
				add(key, DamageTemp, "temporary file left over by a writer that stopped")
			}
		case strings.HasSuffix(base, ".json"):
			in.Records = append(in.Records, key)
		}
		return nil
	})
	return in, err
}

// hasModes says whether this system's files have Unix modes for Inspect
// to check; Windows's do not (Go gives 0666 or 0444, folders 0777).
const hasModes = runtime.GOOS != "windows"

// JournalCut is what Inspect says of a journal left behind.
const JournalCut = "the journal of a committed change that a writer stopped writing: the next command that writes finishes it"

// SetMode gives the folder or file at key conch's own mode (0700, 0600),
// through the folder behind a Dir that is a link, never through a link
// inside it.
func (h *Files) SetMode(key string, folder bool) (fs.FileMode, error) {
	mode := fs.FileMode(0o600)
	if folder {
		mode = 0o700
	}
	p, err := h.real(key)
	if err != nil {
		return mode, err
	}
	return mode, os.Chmod(p, mode)
}

func (h *Files) real(key string) (string, error) {
	root, err := filepath.EvalSymlinks(h.Dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(root, filepath.FromSlash(key)), nil
}

// Quarantine moves what is at key into Dir/quarantine, never over what an
// earlier repair put there, and says where to.
func (h *Files) Quarantine(key string, now time.Time) (string, error) {
	from, err := h.real(key)
	if err != nil {
		return "", err
	}
	h.forget(h.path(key))
	dir, _ := h.real("quarantine")
	if err := h.FS.MkdirAll(dir); err != nil {
		return "", err
	}
	name := strings.ReplaceAll(key, "/", "_") + "." + now.UTC().Format("20060102T150405")
	for i, base := 1, name; ; i++ {
		if _, err := h.FS.Stat(filepath.Join(dir, name)); errors.Is(err, fs.ErrNotExist) {
			break
		}
		name = fmt.Sprintf("%s.%d", base, i)
	}
	if err := h.FS.Rename(from, filepath.Join(dir, name)); err != nil {
		return "", err
	}
	return h.path("quarantine/" + name), nil
}

// RemoveLeftover removes a temporary file a writer that stopped left.
func (h *Files) RemoveLeftover(key string) error {
	p, err := h.real(key)
	if err != nil {
		return err
	}
	return h.FS.Remove(p)
}

// isOverlay says whether the file at p, named base, is the overlay of a
// record that is there; one whose record is gone is a leftover.
func isOverlay(p, base string) bool {
	record, ok := IsLive(base)
	if !ok {
		return false
	}
	_, err := os.Lstat(filepath.Join(filepath.Dir(p), record))
	return err == nil
}

// ErrReadOnly is a home on a file system mounted read-only.
var ErrReadOnly = errors.New("the home's file system is read-only (mounted read-only, or remounted so after an error): no command can write it until it is mounted read-write again")

// canUse says why this user cannot read and write p, through the FS when
// it answers that itself (a test's, failing as a read-only mount does).
func (h *Files) canUse(p string, dir bool) error {
	if u, ok := h.FS.(interface {
		CanUse(p string, dir bool) error
	}); ok {
		return u.CanUse(p, dir)
	}
	return canUse(p, dir)
}

// Package place resolves a folder of this computer into the place it is
// (SPEC §1): symbolic links followed, case folded where the file system
// ignores case. It asks this computer's disk; the rules that compare
// places are the domain's (package state), which calls it once per reply.
package place

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// Of resolves a folder for comparing places: symbolic links followed,
// and case folded where the file system there ignores case. It is worked
// out once, when a reply starts, so the hot commands compare strings only.
func Of(folder string) string {
	p := filepath.Clean(folder)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	if caseInsensitive(p) {
		p = strings.ToLower(p)
	}
	return p
}

// caseInsensitive finds out whether the file system holding dir ignores
// case, by looking the folder up again with one name's case swapped. It is
// asked of the disk, not guessed from the operating system.
func caseInsensitive(dir string) bool {
	want, err := os.Stat(dir)
	if err != nil {
		return false
	}
	for d := dir; d != filepath.Dir(d); d = filepath.Dir(d) {
		base := filepath.Base(d)
		swapped := swapCase(base)
		if swapped == base {
			continue
		}
		other := filepath.Join(filepath.Dir(d), swapped) + strings.TrimPrefix(dir, d)
		got, err := os.Stat(other)
		return err == nil && os.SameFile(want, got)
	}
	return false
}

func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}

// Path resolves a path that may not exist yet (a file about to be
// written, a claim on one): the longest part of it that exists has its
// links followed, the rest is kept as it is, and the case folded as Of
// folds it. A file written through a link and the file the link names are
// one path.
func Path(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for d := p; ; d = filepath.Dir(d) {
		// One look first: a path that is not there (a file an edit is
		// about to make) does not resolve, and resolving it would look at
		// each of its folders in turn only to find that out.
		if there(d) {
			if r, err := filepath.EvalSymlinks(d); err == nil {
				if caseInsensitive(r) {
					r, rest = strings.ToLower(r), strings.ToLower(rest)
				}
				return filepath.Join(r, rest)
			}
		}
		if d == filepath.Dir(d) {
			return p
		}
		rest = filepath.Join(filepath.Base(d), rest)
	}
}

// there says whether something is at p, or may be (a look that fails for
// another reason than its absence leaves that to EvalSymlinks).
func there(p string) bool {
	_, err := os.Lstat(p)
	return !errors.Is(err, fs.ErrNotExist)
}

// Tree finds the git work tree holding dir (a place, resolved) as git
// finds it, from the disk alone (no git process): the nearest folder up
// from dir that holds a .git entry, a folder or a worktree's file. repo is
// the repository's common folder (the .git folder itself, for every
// worktree of one repository), so two worktrees of one repository have
// two trees and one repo. Both "" when dir is in no work tree. What git
// reads beyond the disk (GIT_DIR, GIT_WORK_TREE, core.worktree) is not
// read.
func Tree(dir string) (tree, repo string) {
	for d := dir; ; d = filepath.Dir(d) {
		g := filepath.Join(d, ".git")
		if fi, err := os.Lstat(g); err == nil {
			switch {
			case fi.IsDir():
				return d, g
			case fi.Mode().IsRegular():
				return d, commonDir(d, g)
			}
		}
		if d == filepath.Dir(d) {
			return "", ""
		}
	}
}

// maxGitFile is how much of a .git file or a commondir file is read.
const maxGitFile = 4096

// commonDir is the repository a worktree's .git file points to: its
// gitdir, and that folder's commondir when it has one.
func commonDir(tree, gitFile string) string {
	line := readLine(gitFile)
	dir, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return gitFile
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(tree, dir)
	}
	if c := readLine(filepath.Join(dir, "commondir")); c != "" {
		if !filepath.IsAbs(c) {
			c = filepath.Join(dir, c)
		}
		dir = c
	}
	return Of(dir)
}

// readLine is the first line of a small file, trimmed; "" when it cannot
// be read.
func readLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, maxGitFile)
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	return strings.TrimSpace(line)
}

// IsDir says whether p is a folder there now (its links followed).
func IsDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

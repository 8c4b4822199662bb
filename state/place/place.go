// Package place resolves a folder of this computer into the place it is
// (SPEC §1): symbolic links followed, case folded where the file system
// ignores case. It asks this computer's disk; the rules that compare
// places are the domain's (package state), which calls it once per reply.
package place

import (
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

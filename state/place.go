package state

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// placeOf resolves a folder for comparing places: symbolic links followed,
// and case folded where the file system there ignores case. It is worked
// out once, when a reply starts, so the hot commands compare strings only.
func placeOf(folder string) string {
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

// samePlace says whether two replies work in the same place (SPEC §1): the
// same computer and the same folder, or one inside the other; inside
// conch's worktrees folder only the very same folder counts.
func samePlace(computerA, placeA, computerB, placeB, worktrees string) bool {
	return sharePlace(computerA, placeA, computerB, placeB, func() string { return worktrees })
}

// sharePlace is samePlace, asking for the worktrees folder (which costs a
// look at the disk) only for two places one inside the other.
func sharePlace(computerA, placeA, computerB, placeB string, worktrees func() string) bool {
	if computerA != computerB || placeA == "" || placeB == "" {
		return false
	}
	if placeA == placeB {
		return true
	}
	if !within(placeA, placeB) && !within(placeB, placeA) {
		return false
	}
	wt := worktrees()
	return !within(placeA, wt) && !within(placeB, wt)
}

// within says whether p is dir or inside it.
func within(p, dir string) bool {
	if dir == "" {
		return false
	}
	if p == dir {
		return true
	}
	if dir == string(filepath.Separator) {
		return true
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

package state

import (
	"path/filepath"
	"strings"

	"github.com/conch-sh/conch/state/place"
)

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

// placeOf is the place of a folder of this computer.
func placeOf(folder string) string { return place.Of(folder) }

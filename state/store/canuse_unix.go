//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// canUse says why this user cannot read and write p (and enter it, a
// folder), when the mode looks right: a file another user owns, say.
func canUse(p string, dir bool) error {
	want := uint32(4 | 2) // R_OK | W_OK
	if dir {
		want |= 1 // X_OK
	}
	if err := syscall.Access(p, want); err != nil {
		if errors.Is(err, syscall.EROFS) {
			return ErrReadOnly
		}
		owner := ""
		if info, err := os.Lstat(p); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok {
				owner = fmt.Sprintf(" (owned by uid %d)", st.Uid)
			}
		}
		return fmt.Errorf("this user (uid %d) cannot read and write it%s: every command that writes it fails", os.Getuid(), owner)
	}
	return nil
}

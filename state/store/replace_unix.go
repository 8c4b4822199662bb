//go:build !windows

package store

import (
	"errors"
	"os"

	"github.com/google/renameio/v2"
)

// pendingFile is a temporary file that replaces its target whole
// (renameio's: the file synced, then renamed over the target).
type pendingFile = renameio.PendingFile

// tempFile is a new temporary file in dir that will replace path.
func tempFile(dir, path string) (*pendingFile, error) { return renameio.TempFile(dir, path) }

// rename replaces to with from, in one step.
func rename(from, to string) error { return os.Rename(from, to) }

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

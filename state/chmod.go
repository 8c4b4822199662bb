package state

import (
	"io/fs"
	"os"
)

func chmod(p string, mode fs.FileMode) error { return os.Chmod(p, mode) }

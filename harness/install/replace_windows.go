package install

import (
	"os"
	"path/filepath"
)

// replaceFile replaces path whole with data: a temporary file beside it,
// synced, renamed over it by os.Rename (MoveFileEx; renameio has no
// WriteFile on Windows). Windows's permissions are the folder's.
func replaceFile(path string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

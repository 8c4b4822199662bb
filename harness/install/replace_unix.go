//go:build !windows

package install

import "github.com/google/renameio/v2"

// replaceFile replaces path whole with data, keeping its permissions (a
// new file is 0600).
func replaceFile(path string, data []byte) error {
	return renameio.WriteFile(path, data, 0o600, renameio.WithExistingPermissions())
}

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// openDir is a temporary folder every user may enter (t.TempDir's are
// 0700, its parent's too), removed when the test ends.
func openDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "conch-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// conchBinary builds the real conch for a test that runs it as another
// process (under strace, as another user), into dir.
func conchBinary(t *testing.T, dir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the real binary is not built")
	}
	path := filepath.Join(dir, "conch")
	out, err := exec.Command("go", "build", "-o", path, "../cmd/conch").CombinedOutput()
	if err != nil {
		t.Fatalf("building conch: %v\n%s", err, out)
	}
	return path
}

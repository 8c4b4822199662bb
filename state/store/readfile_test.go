package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestReadFileIsOSReadFile: the plain-call reader gives what os.ReadFile
// gives, at every size around its buffer's edges, for files whose size the
// system does not know ahead (/proc), and for the errors callers tell apart.
func TestReadFileIsOSReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 511, 512, 513, 4095, 4096, 4097, 1 << 20} {
		p := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("conch|"), n/6+1)[:n]
		if err := os.WriteFile(p, want, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("size %d: read %d bytes, %v", n, len(got), err)
		}
	}
	if self, err := os.ReadFile("/proc/self/status"); err == nil {
		got, err := ReadFile("/proc/self/status")
		if err != nil || !bytes.HasPrefix(got, []byte("Name:")) || len(got) < len(self)/2 {
			t.Fatalf("/proc/self/status: %d bytes, %v", len(got), err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file: %v, want not exist", err)
	}
	if _, err := ReadFile(dir); err == nil {
		t.Fatal("a folder read as a file")
	}
}

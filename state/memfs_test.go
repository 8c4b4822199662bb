package state_test

import (
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// memFS is a state.FS in memory, so the fuzz target runs without touching
// (and syncing) a disk. Folders exist implicitly.
type memFS struct {
	mu    sync.Mutex
	files map[string][]byte
}

func newMemFS() *memFS { return &memFS{files: map[string][]byte{}} }

func (m *memFS) ReadFile(name string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, ok := m.files[filepath.Clean(name)]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return append([]byte(nil), data...), nil
}

func (m *memFS) WriteFile(name string, data []byte, durable bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[filepath.Clean(name)] = append([]byte(nil), data...)
	return nil
}

func (m *memFS) Remove(name string) error { return m.RemoveAll(name) }

func (m *memFS) SyncDir(name string) error { return nil }

func (m *memFS) RemoveAll(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	name = filepath.Clean(name)
	for p := range m.files {
		if p == name || strings.HasPrefix(p, name+"/") {
			delete(m.files, p)
		}
	}
	return nil
}

func (m *memFS) Rename(from, to string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[filepath.Clean(to)] = m.files[filepath.Clean(from)]
	delete(m.files, filepath.Clean(from))
	return nil
}

func (m *memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	name = filepath.Clean(name)
	seen := map[string]bool{}
	var out []fs.DirEntry
	for p := range m.files {
		rest, ok := strings.CutPrefix(p, name+"/")
		if !ok {
			continue
		}
		first, _, _ := strings.Cut(rest, "/")
		if !seen[first] {
			seen[first] = true
			out = append(out, fs.FileInfoToDirEntry(fileInfo{first}))
		}
	}
	if len(out) == 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func (m *memFS) MkdirAll(name string) error { return nil }

func (m *memFS) Stat(name string) (fs.FileInfo, error) {
	return fileInfo{filepath.Base(name)}, nil
}

type fileInfo struct{ name string }

func (f fileInfo) Name() string       { return f.name }
func (f fileInfo) Size() int64        { return 0 }
func (f fileInfo) Mode() fs.FileMode  { return 0o600 }
func (f fileInfo) ModTime() time.Time { return time.Time{} }
func (f fileInfo) IsDir() bool        { return false }
func (f fileInfo) Sys() any           { return nil }

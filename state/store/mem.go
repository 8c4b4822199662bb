package store

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Mem is a home in memory: the unit tests' store, and the smallest
// implementation of Store. A commit is applied under one mutex, so every
// reader sees it whole.
type Mem struct {
	mu       sync.Mutex
	lock     sync.Mutex // the write lock
	made     bool
	records  map[string][]byte
	watchers map[*memWatch]bool
}

type memWatch struct {
	keys []string
	ch   chan struct{}
}

// NewMem is an empty home, not yet made.
func NewMem() *Mem {
	return &Mem{records: map[string][]byte{}, watchers: map[*memWatch]bool{}}
}

func (m *Mem) Where(key string) string { return "mem:" + key }

func (m *Mem) Get(key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, ok := m.records[key]
	if !ok {
		if m.isDir(key) {
			return nil, fmt.Errorf("%s: is a folder", key)
		}
		return nil, fmt.Errorf("%s: %w", key, ErrNotFound)
	}
	return append([]byte(nil), data...), nil
}

func (m *Mem) isDir(key string) bool {
	for k := range m.records {
		if strings.HasPrefix(k, key+"/") {
			return true
		}
	}
	return false
}

func (m *Mem) List(dir string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.records[dir]; ok {
		return nil, fmt.Errorf("%s: %w", dir, ErrNotDir)
	}
	seen := map[string]bool{}
	prefix := dir + "/"
	if dir == "" {
		prefix = "" // the top of the home
	}
	for k := range m.records {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest = rest[:i+1]
		}
		seen[rest] = true
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

func (m *Mem) Exists() (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.made, nil
}

func (m *Mem) Lock(time.Duration) (func(), error) {
	m.lock.Lock()
	m.mu.Lock()
	m.made = true
	m.mu.Unlock()
	return m.lock.Unlock, nil
}

func (m *Mem) Commit(ws []Write) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var changed []string
	for _, w := range ws {
		if w.Delete {
			continue
		}
		m.records[w.Key] = append([]byte(nil), w.Data...)
		changed = append(changed, w.Key)
	}
	for _, w := range ws {
		if !w.Delete {
			continue
		}
		for k := range m.records {
			if k == w.Key || strings.HasPrefix(k, w.Key+"/") {
				delete(m.records, k)
				changed = append(changed, k)
			}
		}
	}
	for w := range m.watchers {
		if w.matches(changed) {
			select {
			case w.ch <- struct{}{}:
			default:
			}
		}
	}
	return nil, nil
}

func (w *memWatch) matches(changed []string) bool {
	for _, c := range changed {
		for _, k := range w.keys {
			if c == k || (strings.HasSuffix(k, "/") && strings.HasPrefix(c, k)) {
				return true
			}
		}
	}
	return false
}

func (m *Mem) Watch(ctx context.Context, keys ...string) (<-chan struct{}, error) {
	w := &memWatch{keys: keys, ch: make(chan struct{}, 1)}
	m.mu.Lock()
	m.watchers[w] = true
	m.mu.Unlock()
	go func() {
		<-ctx.Done()
		m.mu.Lock()
		delete(m.watchers, w)
		m.mu.Unlock()
	}()
	return w.ch, nil
}

// Drop removes the record at key, as Files.Drop does.
func (m *Mem) Drop(key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.records, key)
	return nil
}

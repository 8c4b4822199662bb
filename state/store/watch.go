package store

import (
	"context"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// Watch watches the folders that hold keys (a rename replaces a file, so a
// watch on the file itself would go with it) and sends when a name among
// keys changes in them. A folder that cannot be watched says nothing: the
// caller's timer notices instead.
func (h *Files) Watch(ctx context.Context, keys ...string) (<-chan struct{}, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	names := map[string]bool{} // folder/name, or folder/ for all of it
	var pending []string       // folders not there yet
	for _, k := range keys {
		dir, name := path.Split(k)
		dir = strings.TrimSuffix(dir, "/")
		if name == "" { // "waits/": the folder itself
			dir, name = strings.TrimSuffix(k, "/"), ""
		}
		if dir == "" {
			dir = "."
		}
		if w.Add(h.path(dir)) != nil {
			pending = append(pending, h.path(dir))
		}
		names[filepath.Join(h.path(dir), name)] = true
	}
	if len(pending) > 0 {
		// A folder made later is watched once something changes in the
		// home (its making, most often).
		_ = w.Add(h.Dir)
	}
	ch := make(chan struct{}, 1)
	go func() {
		defer w.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				pending = slices.DeleteFunc(pending, func(d string) bool { return w.Add(d) == nil })
				base := filepath.Base(ev.Name)
				if record, ok := IsLive(base); ok {
					ev.Name = filepath.Join(filepath.Dir(ev.Name), record) // a step in the record's overlay
				} else if strings.HasPrefix(base, ".") || strings.HasSuffix(base, ".lock") {
					continue // a temporary file, not yet the record; a lock
				}
				if names[ev.Name] || names[filepath.Dir(ev.Name)] {
					select {
					case ch <- struct{}{}:
					default:
					}
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	return ch, nil
}

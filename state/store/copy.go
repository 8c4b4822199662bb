package store

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// copyChunk is how many records one commit of Copy writes.
const copyChunk = 500

// Own says whether key is the store's own and no record: a lock file, the
// journal or an old conch's commit mark, or a name that begins with a dot
// (a writer's temporary file, a step's overlay). Copy never copies one.
func Own(key string) bool {
	base := path.Base(key)
	return key == JournalName || key == OldMarkName || strings.HasSuffix(base, ".lock") || strings.HasPrefix(base, ".")
}

// CopyOptions shape a Copy: Skip leaves out more than the store's own
// (the caller's files that stay where they are, and their folders), and
// Keep is each record's bytes on their way (nil: as they are).
type CopyOptions struct {
	Skip func(key string) bool
	Keep func(key string, data []byte) ([]byte, error)
}

// Copy copies every record of src into dst, which must hold none, under
// dst's lock, in commits of a few hundred durable records, and says how
// many it copied. A record that goes from src while it runs is passed
// over.
func Copy(dst, src Store, o CopyOptions) (int, error) {
	unlock, err := dst.Lock(0)
	if err != nil {
		return 0, err
	}
	defer unlock()
	if names, err := dst.List(""); err != nil {
		return 0, err
	} else if len(names) > 0 {
		return 0, fmt.Errorf("%s is not empty (%d names at its top): a home is copied only into an empty one", dst.Where(""), len(names))
	}
	keys, err := recordKeys(src, "", o.Skip)
	if err != nil {
		return 0, err
	}
	for i := 0; i < len(keys); i += copyChunk {
		ws := make([]Write, 0, copyChunk)
		for _, k := range keys[i:min(i+copyChunk, len(keys))] {
			data, err := src.Get(k)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return i, err
			}
			if o.Keep != nil {
				if data, err = o.Keep(k, data); err != nil {
					return i, err
				}
			}
			ws = append(ws, Write{Key: k, Data: data, Class: Durable})
		}
		if _, err := dst.Commit(ws); err != nil {
			return i, err
		}
	}
	return len(keys), nil
}

// recordKeys are the keys of the records under dir in s, the store's own
// and what skip leaves out passed over.
func recordKeys(s Store, dir string, skip func(string) bool) ([]string, error) {
	names, err := s.List(dir)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, n := range names {
		key := path.Join(dir, n)
		if Own(key) || skip != nil && skip(key) {
			continue
		}
		if !strings.HasSuffix(n, "/") {
			keys = append(keys, key)
			continue
		}
		more, err := recordKeys(s, key, skip)
		if err != nil {
			return nil, err
		}
		keys = append(keys, more...)
	}
	return keys, nil
}

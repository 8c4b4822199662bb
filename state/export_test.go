package state

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// BuildLog writes n events straight into chat id's log (no transaction, no
// syncs, several writers at once), the first at start and each step later,
// and its head: a quick way to a large home for tests and benchmarks. Only
// the first `files` events get a file (all of them when files < 0): a test
// that must not read deep into a log can leave the rest out.
func BuildLog(h *Home, id string, n, files int, start time.Time, step time.Duration) error {
	if files < 0 || files > n {
		files = n
	}
	event := func(i int) []byte {
		seq := int64(i + 1)
		data, _ := json.Marshal(Event{Sequence: seq, Kind: KindCompacted, Actor: ActorSystem, At: start.Add(time.Duration(i) * step), Summary: "history compacted"})
		return data
	}
	head, _ := json.Marshal(head{StateVersion: int64(n), Touched: start})
	if _, onFiles := h.store.(*store.Files); !onFiles {
		unlock, err := h.store.Lock(0)
		if err != nil {
			return err
		}
		defer unlock()
		ws := []store.Write{{Key: headRel(id), Data: head, Class: store.Durable}}
		for i := 0; i < files; i++ {
			ws = append(ws, store.Write{Key: eventRel(id, int64(i+1)), Data: event(i), Class: store.Event})
		}
		_, err = h.store.Commit(ws)
		return err
	}
	dir := filepath.Join(h.Dir, "log", id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < files; i += 16 {
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%012d.json", i+1)), event(i), 0o600); err != nil {
					errs <- err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "head.json"), head, 0o600)
}

// putRaw writes data as the record at key, past the domain: a record torn
// or made by hand.
func putRaw(t testing.TB, h *Home, key string, data []byte) {
	t.Helper()
	unlock, err := h.store.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := h.store.Commit([]store.Write{{Key: key, Data: data, Class: store.Durable}}); err != nil {
		t.Fatal(err)
	}
}

// CountProcessLooks counts, until the returned func is called, the looks
// at whether a process is there that a summary's working asks.
func CountProcessLooks(n *int) (restore func()) {
	was := procExists
	procExists = func(pid int) bool {
		*n++
		return was(pid)
	}
	return func() { procExists = was }
}

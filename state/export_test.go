package state

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
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
				seq := int64(i + 1)
				ev := Event{Sequence: seq, Kind: KindCompacted, Actor: ActorSystem, At: start.Add(time.Duration(i) * step), Summary: "history compacted"}
				data, _ := json.Marshal(ev)
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%012d.json", seq)), data, 0o600); err != nil {
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
	data, _ := json.Marshal(Head{StateVersion: int64(n), Touched: start})
	return os.WriteFile(filepath.Join(dir, "head.json"), data, 0o600)
}

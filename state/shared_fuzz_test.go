package state

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store"
)

// FuzzSharedRecord: a home whose records come from a store shared with
// other computers (a backend) reads them as input, as it reads files: a
// record the server changed (a chat's, a task's) never panics a reader or
// a writer, and the error names the record; and what this computer keeps
// of its own (commands/ID.json) is read the same way.
func FuzzSharedRecord(f *testing.F) {
	f.Add(uint8(0), []byte(`{"id":"c_1","title":"x","computer":"test","wake_cmd":"touch /tmp/x","cmd_env":["PATH=/evil"]}`))
	f.Add(uint8(1), []byte(`{"id":"c_2","reply":{"id":"c_2.1","computer":"elsewhere","pid":-1}}`))
	f.Add(uint8(2), []byte(`{"id":"t_1","parent":"c_9","task":null}`))
	f.Add(uint8(3), []byte(`{"wake_cmd":"true","cmd_env":["PATH=/bin"],"folder":"/w"}`))
	template := fuzzTemplate(f)
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		own := store.NewMem()
		var dir, path string
		if which%4 == 3 {
			// This computer's own commands file for c_1, fuzzed.
			unlock, _ := own.Lock(0)
			_, _ = own.Commit([]store.Write{{Key: commandsRel("c_1"), Data: data, Class: store.Durable}})
			unlock()
			dir, path = filepath.Join(t.TempDir(), "home"), own.Where(commandsRel("c_1"))
			copyTree(t, template, dir)
		} else {
			rel := []string{"chats/c_1.json", "chats/c_2.json", "tasks/t_1.json"}[which%4]
			var h *Home
			h, path = fuzzHome(t, template, rel, data)
			dir = h.Dir
		}
		h, err := Open(Options{Dir: dir, Store: store.NewFiles(dir, quickFS{}, 0), Local: own, Now: func() time.Time { return faultNow }, Wall: func() time.Time { return faultNow }, Hostname: "test"})
		if err != nil {
			t.Fatal(err)
		}
		readers(t, h, path)
		if json.Valid(data) {
			writers(t, h, path)
		}
	})
}

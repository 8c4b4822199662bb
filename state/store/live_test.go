package store

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func liveHome(t *testing.T) (*Files, func()) {
	t.Helper()
	h := NewFiles(filepath.Join(t.TempDir(), "home"), nil, 0)
	unlock, err := h.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	return h, unlock
}

func commit(t *testing.T, h *Files, key, data string, class Class) {
	t.Helper()
	if _, err := h.Commit([]Write{{Key: key, Data: []byte(data), Class: class}}); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, h *Files, key string) string {
	t.Helper()
	b, err := h.Get(key)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func stat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// TestLiveWriteInPlace: a live write of a record that is there goes into
// its overlay (the record's file is not replaced), and reads as the record;
// a durable write afterwards outdates the overlay at once.
func TestLiveWriteInPlace(t *testing.T) {
	h, unlock := liveHome(t)
	defer unlock()
	key := "chats/c_1.json"
	p := h.path(key)
	commit(t, h, key, `{"v":0}`, Live) // no record yet: written whole
	if _, err := os.Stat(livePath(p)); !os.IsNotExist(err) {
		t.Fatalf("a new record's first write made an overlay: %v", err)
	}
	was := stat(t, p)
	for i := 1; i <= 5; i++ {
		commit(t, h, key, fmt.Sprintf(`{"v":%d}`, i), Live)
		if got, want := get(t, h, key), fmt.Sprintf(`{"v":%d}`, i); got != want {
			t.Fatalf("after live write %d: %s, want %s", i, got, want)
		}
	}
	if !os.SameFile(stat(t, p), was) {
		t.Fatal("a live write replaced the record's file")
	}
	if b, _ := os.ReadFile(p); string(b) != `{"v":0}` {
		t.Fatalf("the record's file changed under its overlay: %s", b)
	}
	commit(t, h, key, `{"v":"durable"}`, Durable)
	if got := get(t, h, key); got != `{"v":"durable"}` {
		t.Fatalf("after a durable write the overlay still stands: %s", got)
	}
	commit(t, h, key, `{"v":6}`, Live)
	if got := get(t, h, key); got != `{"v":6}` {
		t.Fatalf("a live write over the new record: %s", got)
	}
	if _, err := h.Commit([]Write{{Key: key, Delete: true}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Get(key); !os.IsNotExist(err) {
		t.Fatalf("a deleted record reads: %v", err)
	}
	if _, err := os.Stat(livePath(p)); !os.IsNotExist(err) {
		t.Fatalf("a deleted record's overlay stays: %v", err)
	}
}

// TestLiveTornSlot: a slot that is not whole (a power cut mid-write) is
// passed over; the other slot, or the record's file, serves.
func TestLiveTornSlot(t *testing.T) {
	h, unlock := liveHome(t)
	defer unlock()
	key := "chats/c_1.json"
	commit(t, h, key, `{"v":0}`, Durable)
	commit(t, h, key, `{"v":1}`, Live) // slot 0
	commit(t, h, key, `{"v":2}`, Live) // slot 1
	lp := livePath(h.path(key))
	b, err := os.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	torn := bytes.Clone(b)
	torn[liveHeader+liveSlot+liveHeader+3] ^= 0xff // slot 1's data
	if err := os.WriteFile(lp, torn, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := get(t, h, key); got != `{"v":1}` {
		t.Fatalf("with the newest slot torn: %s, want the older slot's", got)
	}
	torn[liveHeader+2] ^= 0xff // slot 0's data too
	if err := os.WriteFile(lp, torn, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := get(t, h, key); got != `{"v":0}` {
		t.Fatalf("with both slots torn: %s, want the record's file", got)
	}
	commit(t, h, key, `{"v":3}`, Live)
	if got := get(t, h, key); got != `{"v":3}` {
		t.Fatalf("a live write after torn slots: %s", got)
	}
}

// TestLiveTooLarge: a live record larger than a slot is written whole.
func TestLiveTooLarge(t *testing.T) {
	h, unlock := liveHome(t)
	defer unlock()
	key := "chats/c_1.json"
	commit(t, h, key, `{"v":0}`, Durable)
	big := `{"v":"` + string(bytes.Repeat([]byte("x"), liveSlot)) + `"}`
	commit(t, h, key, big, Live)
	if got := get(t, h, key); got != big {
		t.Fatal("a large live record reads back otherwise")
	}
	if b, _ := os.ReadFile(h.path(key)); string(b) != big {
		t.Fatal("a large live record was not written whole")
	}
}

// TestLiveReaders: lock-free readers, while live writes go on, read each
// record whole: one of the values written, never half of one. The records
// are of lengths on both sides of an overlay's first read (slotRead), so
// that a slot read in two parts is read under the writes too.
func TestLiveReaders(t *testing.T) {
	h, unlock := liveHome(t)
	defer unlock()
	key := "chats/c_1.json"
	value := func(i int) string {
		return fmt.Sprintf(`{"v":%d,"pad":"%s"}`, i, bytes.Repeat([]byte{'a' + byte(i%26)}, 3000+(i%3)*3000))
	}
	commit(t, h, key, value(0), Durable)
	written := sync.Map{}
	written.Store(value(0), true)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				b, err := h.Get(key)
				if err != nil {
					t.Error(err)
					return
				}
				if _, ok := written.Load(string(b)); !ok {
					t.Errorf("a reader read a record never written (%d bytes)", len(b))
					return
				}
			}
		}()
	}
	for i := 1; i <= 300; i++ {
		written.Store(value(i), true)
		commit(t, h, key, value(i), Live)
	}
	close(done)
	wg.Wait()
}

// readCounting is the real file system, counting the bytes asked of
// overlays.
type readCounting struct {
	OSFS
	asked int
}

func (r *readCounting) ReadAt(name string, offs []int64, sizes []int) ([][]byte, error) {
	for _, n := range sizes {
		r.asked += n
	}
	return r.OSFS.ReadAt(name, offs, sizes)
}

func (r *readCounting) ReadFile(name string) ([]byte, error) {
	if strings.HasSuffix(name, LiveSuffix) {
		r.asked += 1 << 30 // an overlay read whole
	}
	return r.OSFS.ReadFile(name)
}

// TestLiveReadsTheSlotsOnly: an overlay is read as far as its slots hold,
// not whole (its first slot's unused room lies between them): a small
// record's in one read of each slot's start, a long one's with its rest;
// each reads back as written, and a long one torn past the first read is
// passed over.
func TestLiveReadsTheSlotsOnly(t *testing.T) {
	for _, size := range []int{100, slotRead - liveHeader - 20, slotRead, 3 * slotRead, liveSlot - 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			fsys := &readCounting{}
			h := NewFiles(filepath.Join(t.TempDir(), "home"), fsys, 0)
			unlock, err := h.Lock(0)
			if err != nil {
				t.Fatal(err)
			}
			defer unlock()
			key := "chats/c_1.json"
			value := func(v int) string {
				return fmt.Sprintf(`{"v":%d,"pad":"%s"}`, v, bytes.Repeat([]byte("p"), size-len(`{"v":0,"pad":""}`)))
			}
			commit(t, h, key, value(0), Durable)
			commit(t, h, key, value(1), Live)  // slot 0
			commit(t, h, key, value(2), Live)  // slot 1
			reader := NewFiles(h.Dir, fsys, 0) // a lock-free reader's: nothing remembered
			fsys.asked = 0
			b, err := reader.Get(key)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != value(2) {
				t.Fatalf("read %d bytes, not the newest slot's record", len(b))
			}
			if most := 2 * max(slotRead, liveHeader+size); fsys.asked > most {
				t.Errorf("asked %d bytes of the overlay, more than its slots hold (%d)", fsys.asked, most)
			}
			if size <= slotRead {
				return
			}
			lp := livePath(h.path(key))
			raw, err := os.ReadFile(lp)
			if err != nil {
				t.Fatal(err)
			}
			raw[liveHeader+liveSlot+size-10] ^= 0xff // slot 1, past its first read
			if err := os.WriteFile(lp, raw, 0o600); err != nil {
				t.Fatal(err)
			}
			if b, err := reader.Get(key); err != nil || string(b) != value(1) {
				t.Fatalf("with the newest slot torn past its first read: %d bytes, %v; want the older slot's", len(b), err)
			}
		})
	}
}

// TestNoOverlayCostsNoMemory: reading a record that has no overlay, as
// most records a notes or a hook reads have none, makes none of the
// slots' room (8 KiB a record, before issue 25's second look), and takes
// no checksum of the record for a reader not holding the lock.
func TestNoOverlayCostsNoMemory(t *testing.T) {
	h := NewFiles(filepath.Join(t.TempDir(), "home"), nil, 0)
	unlock, err := h.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	key := "chats/c_1.json"
	commit(t, h, key, `{"id":"c_1"}`, Durable)
	unlock()
	reader := NewFiles(h.Dir, nil, 0)
	if _, err := reader.Get(key); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	const reads = 100
	runtime.ReadMemStats(&before)
	for range reads {
		if _, err := reader.Get(key); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / reads; per > slotRead {
		t.Errorf("a read of a record with no overlay makes %d bytes, the slots' room", per)
	}
}

// TestLiveWatched: a watch on a record hears a live write in its overlay.
func TestLiveWatched(t *testing.T) {
	h, unlock := liveHome(t)
	defer unlock()
	key := "chats/c_1.json"
	commit(t, h, key, `{"v":0}`, Durable)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := h.Watch(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	commit(t, h, key, `{"v":1}`, Live)
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("the watch did not hear a live write")
	}
}

// TestLiveInspect: doctor's walk takes an overlay for its record's, not a
// record nor a leftover; one whose record is gone is a leftover.
func TestLiveInspect(t *testing.T) {
	h, unlock := liveHome(t)
	defer unlock()
	key := "chats/c_1.json"
	commit(t, h, key, `{"v":0}`, Durable)
	commit(t, h, key, `{"v":1}`, Live)
	later := time.Now().Add(time.Hour)
	in, err := h.Inspect(later, func(string) Expect { return Expect{} })
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Damaged) != 0 || len(in.Records) != 1 {
		t.Fatalf("an overlay inspected as %+v", in)
	}
	if err := os.Remove(h.path(key)); err != nil {
		t.Fatal(err)
	}
	in, err = h.Inspect(later, func(string) Expect { return Expect{} })
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Damaged) != 1 || in.Damaged[0].Damage != DamageTemp {
		t.Fatalf("an overlay with no record inspected as %+v", in.Damaged)
	}
}

// FuzzLiveSlots: whatever an overlay holds, reading it never panics, and a
// slot it takes is one whose checksum holds.
func FuzzLiveSlots(f *testing.F) {
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xff}, 64))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, s := range slots(b) {
			if s.seq != 0 && len(s.data) > liveSlot {
				t.Fatalf("a slot of %d bytes", len(s.data))
			}
		}
	})
}

// TestLiveIn: a record outside the folders that take live writes has no
// overlay: its live write is written whole, and a read looks for none.
func TestLiveIn(t *testing.T) {
	h, unlock := liveHome(t)
	defer unlock()
	h.LiveIn = []string{"chats"}
	commit(t, h, "index.json", `{"v":0}`, Durable)
	commit(t, h, "index.json", `{"v":1}`, Live)
	if b, _ := os.ReadFile(h.path("index.json")); string(b) != `{"v":1}` {
		t.Fatalf("a live write outside LiveIn was not written whole: %s", b)
	}
	if _, err := os.Stat(livePath(h.path("index.json"))); !os.IsNotExist(err) {
		t.Fatalf("a record outside LiveIn has an overlay: %v", err)
	}
	commit(t, h, "chats/c_1.json", `{"v":0}`, Durable)
	commit(t, h, "chats/c_1.json", `{"v":1}`, Live)
	if _, err := os.Stat(livePath(h.path("chats/c_1.json"))); err != nil {
		t.Fatalf("a record in LiveIn took its live write whole: %v", err)
	}
	// An overlay where none belongs is not read: c_1's, beside an
	// index.json that holds what c_1's file holds, so that it stands over it.
	b, err := os.ReadFile(livePath(h.path("chats/c_1.json")))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(livePath(h.path("index.json")), b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.path("index.json"), []byte(`{"v":0}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := get(t, h, "index.json"); got != `{"v":0}` {
		t.Fatalf("a record outside LiveIn read through an overlay: %s", got)
	}
	h.LiveIn = nil
	if got := get(t, h, "index.json"); got != `{"v":1}` {
		t.Fatalf("the planted overlay does not stand over the record: %s", got)
	}
}

// countingFS counts the files read.
type countingFS struct {
	OSFS
	reads int
}

func (c *countingFS) ReadFile(p string) ([]byte, error) {
	c.reads++
	return c.OSFS.ReadFile(p)
}

// TestLiveWriteRemembers: a live write after the lock's holder read the
// record reads nothing again; a write that replaces the record, or a lock
// let go and taken again (another command may have written between),
// makes the next live write read afresh, so that its slot stands over the
// record as it is.
func TestLiveWriteRemembers(t *testing.T) {
	fsys := &countingFS{}
	h := NewFiles(filepath.Join(t.TempDir(), "home"), fsys, 0)
	key, other := "chats/c_1.json", "chats/c_2.json"
	unlock, err := h.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	commit(t, h, key, `{"v":0}`, Durable)
	commit(t, h, key, `{"v":1}`, Live)
	get(t, h, key)
	fsys.reads = 0
	commit(t, h, key, `{"v":2}`, Live)
	if fsys.reads != 0 {
		t.Errorf("a live write after a read read %d files again", fsys.reads)
	}
	commit(t, h, key, `{"v":3}`, Live) // twice: the other slot
	if got := get(t, h, key); got != `{"v":3}` {
		t.Fatalf("after two remembered live writes: %s", got)
	}
	// Replaced in a commit of two records (the journal), then written live.
	if _, err := h.Commit([]Write{{Key: key, Data: []byte(`{"v":"whole"}`), Class: Durable}, {Key: other, Data: []byte(`{}`), Class: Durable}}); err != nil {
		t.Fatal(err)
	}
	commit(t, h, key, `{"v":4}`, Live)
	if got := get(t, h, key); got != `{"v":4}` {
		t.Fatalf("a live write after the record was replaced: %s", got)
	}
	unlock()
	// Another command replaces the record between two locks.
	if err := os.WriteFile(h.path(key), []byte(`{"v":"theirs"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	unlock, err = h.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	commit(t, h, key, `{"v":5}`, Live)
	if got := get(t, h, key); got != `{"v":5}` {
		t.Fatalf("a live write after another's write between locks: %s (the slot stands over the old record)", got)
	}
}

// BenchmarkLiveGet: a lock-free read of a chat-sized record (1 KiB) that
// live writes have put in its overlay, as notes and every hook read the
// chats they show.
func BenchmarkLiveGet(b *testing.B) {
	h := NewFiles(filepath.Join(b.TempDir(), "home"), nil, 0)
	unlock, err := h.Lock(0)
	if err != nil {
		b.Fatal(err)
	}
	key := "chats/c_1.json"
	value := func(v int) []byte {
		return fmt.Appendf(nil, `{"v":%d,"pad":"%s"}`, v, bytes.Repeat([]byte("p"), 1000))
	}
	for v := range 3 {
		class := Live
		if v == 0 {
			class = Durable
		}
		if _, err := h.Commit([]Write{{Key: key, Data: value(v), Class: class}}); err != nil {
			b.Fatal(err)
		}
	}
	unlock()
	reader := NewFiles(h.Dir, nil, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reader.Get(key); err != nil {
			b.Fatal(err)
		}
	}
}

package natsstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/conch-sh/conch/state/store"
	"github.com/conch-sh/conch/state/store/natsstore/natstest"
)

// The lock's wait whose bucket cannot be bound (its node lost, the link
// gone) is an error, not a nil bucket's panic.
func TestAwaitLockWithoutBucket(t *testing.T) {
	srv := natstest.Start(t)
	a, err := Open(Options{URL: srv.URL, Home: "await"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	unlock, err := a.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	b, err := Open(Options{URL: srv.URL, Home: "await", Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	b.Close() // binding now fails, as with the node that served it lost
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, _, err := b.awaitLock(ctx); err == nil {
		t.Fatal("the lock's wait without its bucket took the lock")
	}
}

// spyGets counts the direct gets of home's keys on the server at url, by
// key, until the count is asked for. Its subscription is synchronous: a
// message the server routed to it before the spy's flush is in its queue
// when the flush returns (a handler's goroutine may not have run yet).
func spyGets(t *testing.T, url, home string) (count func() map[string]int) {
	t.Helper()
	spy, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(spy.Close)
	prefix := "$JS.API.DIRECT.GET.KV_" + home + ".$KV." + home + "."
	sub, err := spy.SubscribeSync(prefix + ">")
	if err != nil {
		t.Fatal(err)
	}
	if err := spy.Flush(); err != nil {
		t.Fatal(err)
	}
	return func() map[string]int {
		t.Helper()
		if err := spy.Flush(); err != nil {
			t.Fatal(err)
		}
		gets := map[string]int{}
		for {
			m, err := sub.NextMsg(20 * time.Millisecond)
			if err != nil {
				break
			}
			gets[strings.TrimPrefix(m.Subject, prefix)]++
		}
		_ = sub.Unsubscribe()
		return gets
	}
}

// Taking the lock reads its key once (the read that told the bucket was
// there, by Exists as a command opening the home asks, serves the taking
// too) and the journal once, beside the taking.
func TestLockReadsOnce(t *testing.T) {
	srv := natstest.Start(t)
	commit(t, open(t, srv.URL, "once"), store.Write{Key: "index.json", Data: []byte(`{}`)})
	count := spyGets(t, srv.URL, "once")
	s := open(t, srv.URL, "once")
	if made, err := s.Exists(); err != nil || !made {
		t.Fatalf("the home is not there (%v)", err)
	}
	unlock, err := s.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	if gets := count(); gets[lockKey] != 1 || gets[journalKey] != 1 {
		t.Errorf("one Lock read the lock %d times and the journal %d times, want once each (%v)", gets[lockKey], gets[journalKey], gets)
	}
}

// A store's next Lock takes the lock from its own last unlock's answer
// (which the unlock did not wait for), not from a read of the lock: a
// command of two transactions reads the lock once.
func TestRelockTakesFromTheUnlock(t *testing.T) {
	srv := natstest.Start(t)
	commit(t, open(t, srv.URL, "relock"), store.Write{Key: "index.json", Data: []byte(`{}`)})
	count := spyGets(t, srv.URL, "relock")
	s := open(t, srv.URL, "relock")
	if made, err := s.Exists(); err != nil || !made {
		t.Fatalf("the home is not there (%v)", err)
	}
	for range 3 {
		unlock, err := s.Lock(0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Commit([]store.Write{{Key: "index.json", Data: []byte(`{"n":1}`)}}); err != nil {
			t.Fatal(err)
		}
		unlock()
	}
	if gets := count(); gets[lockKey] != 1 || gets[journalKey] != 3 {
		t.Errorf("three Locks read the lock %d times and the journal %d times, want once and three times (%v)", gets[lockKey], gets[journalKey], gets)
	}
}

// An unlock not waited for still frees the lock: another store, and this
// one after it is closed, take it at once (the lock's time to live is
// longer than either waits).
func TestUnlockFreesTheLock(t *testing.T) {
	srv := natstest.Start(t)
	a, b := open(t, srv.URL, "free"), open(t, srv.URL, "free")
	unlock, err := a.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	a.Close()
	unlock, err = b.Lock(lockTTL / 2)
	if err != nil {
		t.Fatalf("the lock a let go of and closed on: %v", err)
	}
	unlock()
	unlock, err = b.Lock(lockTTL / 2)
	if err != nil {
		t.Fatalf("b's own lock after its unlock: %v", err)
	}
	unlock()
}

// The unlock of a lock that ran out, and was taken by another since, lets
// nothing go: its deletion expects the revision this holder took, so it
// fails, and this store's next Lock, finding no answer to take the lock
// from, reads it held and waits.
func TestUnlockOfALockRunOut(t *testing.T) {
	srv := natstest.Start(t)
	a, b, c := open(t, srv.URL, "ranout"), open(t, srv.URL, "ranout"), open(t, srv.URL, "ranout")
	unlockA, err := a.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	// The lock runs out (as the server's marker would say), and b takes it.
	gone := nats.NewMsg("$KV.ranout." + lockKey)
	gone.Header.Set("KV-Operation", "DEL")
	if _, err := a.js.PublishMsg(context.Background(), gone); err != nil {
		t.Fatal(err)
	}
	unlockB, err := b.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlockB()
	unlockA()
	for name, s := range map[string]*Store{"a": a, "c": c} {
		if unlock, err := s.Lock(300 * time.Millisecond); err == nil {
			unlock()
			t.Errorf("%s took the lock b holds, after a's unlock of the lock that ran out", name)
		}
	}
}

// A journal left by a committer killed before it finished its deletions
// is applied by the next Lock, whether that Lock found the lock free (and
// read the journal beside taking it) or waited for it.
func TestLockRollsForward(t *testing.T) {
	for _, waited := range []bool{false, true} {
		t.Run(fmt.Sprintf("waited=%v", waited), func(t *testing.T) {
			srv := natstest.Start(t)
			s := open(t, srv.URL, "roll")
			commit(t, s, store.Write{Key: "log/c_1/000001.json", Data: []byte(`{}`), Class: store.Event},
				store.Write{Key: "log/c_1/000002.json", Data: []byte(`{}`), Class: store.Event})
			gone, _ := json.Marshal([]string{encodeKey("log/c_1/000001.json"), encodeKey("log/c_1/000002.json")})
			if _, err := s.js.Publish(context.Background(), "$KV.roll."+journalKey, gone); err != nil {
				t.Fatal(err)
			}
			next := open(t, srv.URL, "roll")
			if waited {
				holder := open(t, srv.URL, "roll")
				unlock, err := holder.Lock(0)
				if err != nil {
					t.Fatal(err)
				}
				time.AfterFunc(200*time.Millisecond, unlock)
			}
			unlock, err := next.Lock(0)
			if err != nil {
				t.Fatal(err)
			}
			unlock()
			if names, err := next.List("log/c_1"); err != nil || len(names) != 0 {
				t.Errorf("after the next Lock log/c_1 still lists %v (%v)", names, err)
			}
			if _, there, _, err := next.direct(journalKey); err != nil || there {
				t.Errorf("the journal is still there after the next Lock (%v)", err)
			}
		})
	}
}

// Exists' read of the lock, taken by another since, never gives the lock
// to two: the Lock that follows waits for the other to let go.
func TestLockFromAnOldRead(t *testing.T) {
	srv := natstest.Start(t)
	commit(t, open(t, srv.URL, "old"), store.Write{Key: "index.json", Data: []byte(`{}`)})
	a, b := open(t, srv.URL, "old"), open(t, srv.URL, "old")
	if made, err := a.Exists(); err != nil || !made { // the lock read free
		t.Fatalf("the home is not there (%v)", err)
	}
	unlockB, err := b.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	let := false
	done := make(chan error, 1)
	go func() {
		unlock, err := a.Lock(0)
		if err == nil {
			mu.Lock()
			if !let {
				err = errors.New("a took the lock while b held it")
			}
			mu.Unlock()
			unlock()
		}
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // a is waiting, or has wrongly taken it
	mu.Lock()
	let = true
	mu.Unlock()
	unlockB()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A key read ahead is read beside taking the lock, and answers the
// holder's first Get of it as a read then would: the record as the lock
// found it, then, once the holder has committed, what it wrote; and not
// a record the Lock's roll forward deleted, nor one read before a wait
// for the lock (another holder's change is read).
func TestReadAhead(t *testing.T) {
	srv := natstest.Start(t)
	const key = "chats/c_1.json"
	get := func(s *Store) string {
		t.Helper()
		data, err := s.Get(key)
		if errors.Is(err, store.ErrNotFound) {
			return "not found"
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	s := open(t, srv.URL, "ahead")
	commit(t, s, store.Write{Key: key, Data: []byte("v1")})
	if made, err := s.Exists(); err != nil || !made {
		t.Fatalf("the home is not there (%v)", err)
	}
	count := spyGets(t, srv.URL, "ahead")
	s.ReadAhead(key)
	unlock, err := s.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.aheadRead) != 1 {
		t.Errorf("the Lock read %d keys ahead, want 1", len(s.aheadRead))
	}
	if got := get(s); got != "v1" {
		t.Errorf("under the lock, read ahead: %q, want v1", got)
	}
	if n := count()[encodeKey(key)]; n != 1 {
		t.Errorf("the record was read %d times, want once (beside the lock, answering the Get)", n)
	}
	s.ReadAhead(key)
	unlock()
	s.ReadAhead(key)
	if unlock, err = s.Lock(0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit([]store.Write{{Key: key, Data: []byte("v2")}}); err != nil {
		t.Fatal(err)
	}
	if got := get(s); got != "v2" {
		t.Errorf("after the holder's commit: %q, want v2", got)
	}
	unlock()

	// Another holds the lock, writes v3 and lets go: the waiting Lock
	// reads v3, not what a read ahead of its wait would have found.
	b := open(t, srv.URL, "ahead")
	unlockB, err := b.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(200*time.Millisecond, func() {
		if _, err := b.Commit([]store.Write{{Key: key, Data: []byte("v3")}}); err != nil {
			t.Error(err)
		}
		unlockB()
	})
	s.ReadAhead(key)
	if unlock, err = s.Lock(0); err != nil {
		t.Fatal(err)
	}
	if got := get(s); got != "v3" {
		t.Errorf("after waiting for the lock: %q, want v3", got)
	}
	unlock()

	// A journal left by a killed committer deletes the record: the Lock
	// rolls it forward, and the record read ahead is not there.
	gone, _ := json.Marshal([]string{encodeKey(key)})
	if _, err := s.js.Publish(context.Background(), "$KV.ahead."+journalKey, gone); err != nil {
		t.Fatal(err)
	}
	s.ReadAhead(key)
	if unlock, err = s.Lock(0); err != nil {
		t.Fatal(err)
	}
	if got := get(s); got != "not found" {
		t.Errorf("after the roll forward deleted it: %q, want not found", got)
	}
	unlock()
}

// The lock-free reads made after Open's read found the lock free answer
// the first Lock's reads of the same records, when that Lock took the
// lock at the next revision (nothing was written between): a command that
// reads, then changes what it read (notes), reads each record once. When
// another wrote between, or the holder commits, the records are read
// again.
func TestLockKeepsReads(t *testing.T) {
	srv := natstest.Start(t)
	keys := []string{"chats/c_1.json", "chats/c_2.json"}
	w := open(t, srv.URL, "kept")
	commit(t, w, store.Write{Key: keys[0], Data: []byte("a1")}, store.Write{Key: keys[1], Data: []byte("b1")})
	// w's unlock is not waited for: its answer is in before s opens, as a
	// command's deletion is out before the next command starts (Close
	// flushes it), or s's first read may find the lock held.
	settle(t, w)
	get := func(s *Store, key string) string {
		t.Helper()
		data, err := s.Get(key)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	ready := func(s *Store) *Store {
		t.Helper()
		if made, err := s.Exists(); err != nil || !made {
			t.Fatalf("the home is not there (%v)", err)
		}
		return s
	}

	count := spyGets(t, srv.URL, "kept")
	s := ready(open(t, srv.URL, "kept"))
	for _, k := range keys {
		get(s, k)
	}
	unlock, err := s.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := get(s, keys[0]), get(s, keys[1]); a != "a1" || b != "b1" {
		t.Errorf("under the lock: %q %q, want a1 b1", a, b)
	}
	if _, err := s.Commit([]store.Write{{Key: keys[0], Data: []byte("a2")}}); err != nil {
		t.Fatal(err)
	}
	if got := get(s, keys[0]); got != "a2" {
		t.Errorf("after the holder's commit: %q, want a2", got)
	}
	unlock()
	gets := count()
	if n, m := gets[encodeKey(keys[0])], gets[encodeKey(keys[1])]; n != 2 || m != 1 {
		t.Errorf("the records were read %d and %d times, want 2 (once more after the commit) and 1 (%v)", n, m, gets)
	}

	// Another writes between the lock-free read and the Lock: the
	// record is read again under the lock.
	s = ready(open(t, srv.URL, "kept"))
	if got := get(s, keys[1]); got != "b1" {
		t.Fatalf("read %q, want b1", got)
	}
	commit(t, w, store.Write{Key: keys[1], Data: []byte("b2")})
	if unlock, err = s.Lock(0); err != nil {
		t.Fatal(err)
	}
	if got := get(s, keys[1]); got != "b2" {
		t.Errorf("under the lock after another's commit: %q, want b2", got)
	}
	unlock()

	// A write that took no lock (a holder whose lock ran out, still
	// writing) leaves the lock as it was, but not the revisions: the
	// record is read again under the lock.
	s = ready(open(t, srv.URL, "kept"))
	if got := get(s, keys[1]); got != "b2" {
		t.Fatalf("read %q, want b2", got)
	}
	if _, err := w.js.Publish(context.Background(), "$KV.kept."+encodeKey(keys[1]), []byte("b3")); err != nil {
		t.Fatal(err)
	}
	if unlock, err = s.Lock(0); err != nil {
		t.Fatal(err)
	}
	if got := get(s, keys[1]); got != "b3" {
		t.Errorf("under the lock after a write without it: %q, want b3", got)
	}
	unlock()

	// Reads made after the first Lock are not kept for the next.
	if got := get(s, keys[1]); got != "b3" {
		t.Fatalf("read %q, want b3", got)
	}
	if len(s.kept) != 0 {
		t.Errorf("%d reads kept after the first Lock", len(s.kept))
	}
}

// settle waits for the answer to s's last unlock (freed, which takes it:
// s's next Lock reads the lock).
func settle(t *testing.T, s *Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if s.freed(ctx) == nil {
		t.Fatal("no answer to the unlock in 5 s")
	}
}

// Prefetch reads records side by side, and each read answers the next Get
// of its record, once, in the same stretch: not across the taking of the
// lock (another may have written between), nor across the holder's own
// commit.
func TestPrefetch(t *testing.T) {
	srv := natstest.Start(t)
	k1, k2 := "chats/c_1.json", "chats/c_2.json"
	w := open(t, srv.URL, "fetch")
	commit(t, w, store.Write{Key: k1, Data: []byte("a1")}, store.Write{Key: k2, Data: []byte("b1")})
	get := func(s *Store, key string) string {
		t.Helper()
		data, err := s.Get(key)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	s := open(t, srv.URL, "fetch")
	if made, err := s.Exists(); err != nil || !made {
		t.Fatalf("the home is not there (%v)", err)
	}
	count := spyGets(t, srv.URL, "fetch")
	s.Prefetch(k1, k2)
	s.Prefetch(k1) // being read: not read again
	if len(s.fetched) != 2 {
		t.Errorf("%d reads started, want 2", len(s.fetched))
	}
	if a, b := get(s, k1), get(s, k2); a != "a1" || b != "b1" {
		t.Errorf("prefetched: %q %q, want a1 b1", a, b)
	}
	get(s, k1) // read again: a prefetch answers once
	if gets := count(); gets[encodeKey(k1)] != 2 || gets[encodeKey(k2)] != 1 {
		t.Errorf("reads: %v, want c_1 twice and c_2 once", gets)
	}

	// Prefetched before another's commit and this store's Lock: read again.
	s.Prefetch(k1)
	time.Sleep(50 * time.Millisecond) // the read is in
	commit(t, w, store.Write{Key: k1, Data: []byte("a2")})
	unlock, err := s.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	if got := get(s, k1); got != "a2" {
		t.Errorf("under the lock, prefetched before it: %q, want a2", got)
	}
	// Prefetched under the lock, before the holder's commit: read again.
	s.Prefetch(k2, k1)
	if _, err := s.Commit([]store.Write{{Key: k2, Data: []byte("b2")}}); err != nil {
		t.Fatal(err)
	}
	if got := get(s, k2); got != "b2" {
		t.Errorf("after the holder's commit: %q, want b2", got)
	}
	unlock()
}

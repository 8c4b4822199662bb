package natsstore_test

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/conch-sh/conch/lock"

	"github.com/conch-sh/conch/state/store"
	"github.com/conch-sh/conch/state/store/natsstore"
	"github.com/conch-sh/conch/state/store/natsstore/natstest"
	"github.com/conch-sh/conch/state/store/storetest"
)

func TestJetStream(t *testing.T) {
	srv := natstest.Start(t)
	n := 0
	storetest.Run(t, func(t *testing.T) store.Store {
		n++
		s, err := natsstore.Open(natsstore.Options{URL: srv.URL, Home: "t" + string(rune('a'+n))})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	})
}

func open(t *testing.T, url, home string) *natsstore.Store {
	t.Helper()
	s, err := natsstore.Open(natsstore.Options{URL: url, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// A holder killed with the lock (its connection gone, no unlock) frees it
// when the lock's time runs out: the next Lock gets it.
func TestLockOfAKilledHolder(t *testing.T) {
	srv := natstest.Start(t)
	dead := open(t, srv.URL, "h")
	if _, err := dead.Lock(0); err != nil {
		t.Fatal(err)
	}
	dead.Close() // killed: it never lets go
	s := open(t, srv.URL, "h")
	unlock, err := s.Lock(0)
	if err != nil {
		t.Fatalf("the lock of a killed holder never came free: %v", err)
	}
	unlock()
}

// A held lock is a timeout, named, after the wait.
func TestLockTimeout(t *testing.T) {
	srv := natstest.Start(t)
	a, b := open(t, srv.URL, "h"), open(t, srv.URL, "h")
	unlock, err := a.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, err = b.Lock(50 * time.Millisecond)
	var te *lock.TimeoutError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), srv.URL) {
		t.Fatalf("a held lock: %v, want a timeout naming the server", err)
	}
}

// A deletion of more records than one batch holds goes through the
// journal, and takes them all.
func TestLargeDeletion(t *testing.T) {
	srv := natstest.Start(t)
	s := open(t, srv.URL, "h")
	for part := 0; part < 3; part++ {
		var ws []store.Write
		for i := 0; i < 600; i++ {
			ws = append(ws, store.Write{Key: fmt.Sprintf("log/c_1/%06d.json", part*600+i), Data: []byte(`{}`), Class: store.Event})
		}
		commit(t, s, ws...)
	}
	commit(t, s, store.Write{Key: "log/c_1", Delete: true}, store.Write{Key: "index.json", Data: []byte(`{}`)})
	if names, err := s.List("log/c_1"); err != nil || len(names) != 0 {
		t.Fatalf("after the deletion log/c_1 lists %d names (%v)", len(names), err)
	}
	if _, err := s.Get("index.json"); err != nil {
		t.Fatal(err)
	}
}

func commit(t *testing.T, s store.Store, ws ...store.Write) {
	t.Helper()
	unlock, err := s.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := s.Commit(ws); err != nil {
		t.Fatal(err)
	}
}

// A server that cannot be reached is one error naming its URL.
func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "nats://" + l.Addr().String()
	l.Close()
	_, err = natsstore.Open(natsstore.Options{URL: url, Timeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), url) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("an unreachable server: %v", err)
	}
}

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
	"github.com/conch-sh/conch/state/store/natsstore/hub"
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

var open, commit = natsstore.OpenT, storetest.Commit

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

// A hub with credentials lets in only its own user, over TLS: no creds,
// another hub's creds, or plain nats:// get nothing; its own get the
// home, and the link says it is authenticated and encrypted.
func TestCredentials(t *testing.T) {
	srv := natstest.StartSecure(t)
	other := natstest.StartSecure(t)
	plain := "nats://" + strings.TrimPrefix(srv.URL, "tls://")
	for name, o := range map[string]natsstore.Options{
		"no credentials":      {URL: srv.URL, TLSCA: srv.CA},
		"another hub's creds": {URL: srv.URL, Creds: other.Creds, TLSCA: srv.CA},
		"another hub's CA":    {URL: srv.URL, Creds: srv.Creds, TLSCA: other.CA},
		"plain nats://":       {URL: plain, Creds: srv.Creds},
		"no CA":               {URL: srv.URL, Creds: srv.Creds},
	} {
		o.Home, o.Timeout = "creds", 2*time.Second
		s, err := natsstore.Open(o)
		if err == nil {
			_, err = s.Get("chats/c_1.json")
			s.Close()
		}
		if err == nil || errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: reached the home (%v)", name, err)
		}
	}
	s, err := natsstore.Open(natsstore.Options{URL: srv.URL, Home: "creds", Creds: srv.Creds, TLSCA: srv.CA})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	unlock, err := s.Lock(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit([]store.Write{{Key: "chats/c_1.json", Data: []byte(`{}`), Class: store.Durable}}); err != nil {
		t.Fatal(err)
	}
	unlock()
	h, err := s.Health()
	if err != nil || !h.Authenticated || !h.Encrypted {
		t.Fatalf("the link with credentials: %+v %v", h, err)
	}
	loop := open(t, natstest.Start(t).URL, "creds")
	if h, err := loop.Health(); err != nil || h.Authenticated || h.Encrypted {
		t.Fatalf("the plain link on loopback: %+v %v", h, err)
	}
}

// A hub refuses to listen beyond loopback without credentials (it is
// refused before it listens: nothing binds an outside address).
func TestHubRefusesOpenListen(t *testing.T) {
	for _, l := range []string{"0.0.0.0:0", "[::]:0", ":0", "192.0.2.7:0", "hub.lan:0"} {
		if s, err := hub.Start(hub.Options{Listen: l, Store: t.TempDir()}); err == nil {
			s.Shutdown()
			t.Errorf("a hub on %s started without credentials", l)
		} else if !strings.Contains(err.Error(), "credentials and TLS") {
			t.Errorf("%s: %v", l, err)
		}
	}
	if _, err := hub.Start(hub.Options{Listen: "127.0.0.1:0", Store: t.TempDir(), Cluster: &hub.Cluster{Name: "c", Listen: "0.0.0.0:6222"}}); err == nil || !strings.Contains(err.Error(), "credentials and TLS") {
		t.Errorf("a cluster's routes beyond loopback without credentials: %v", err)
	}
}

// Package natstest starts a hub (a NATS server with JetStream) for a test,
// on 127.0.0.1, a free port, its streams in the test's temporary folder.
package natstest

import (
	"net"
	"testing"

	"github.com/conch-sh/conch/state/store/natsstore/hub"
)

// Server is a test's hub.
type Server struct {
	*hub.Server
	Dir  string
	addr string
}

// Start starts a hub that stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	dir := t.TempDir()
	s, err := hub.Start(hub.Options{Listen: "127.0.0.1:0", Store: dir})
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{Server: s, Dir: dir, addr: s.Addr().(*net.TCPAddr).String()}
	t.Cleanup(func() { srv.Shutdown() })
	return srv
}

// Restart stops the server and starts it again on the same port and
// folder, as a person restarting it would.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.Shutdown()
	s.WaitForShutdown()
	n, err := hub.Start(hub.Options{Listen: s.addr, Store: s.Dir})
	if err != nil {
		t.Fatal(err)
	}
	s.Server = n
}

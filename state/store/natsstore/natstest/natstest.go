// Package natstest starts a hub (a NATS server with JetStream) for a test,
// on 127.0.0.1, a free port, its streams in the test's temporary folder.
package natstest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/conch-sh/conch/state/store/natsstore/hub"
	"github.com/conch-sh/conch/state/store/natsstore/join"
)

// Server is a test's hub.
type Server struct {
	*hub.Server
	Dir  string
	addr string
	opts hub.Options
	// With credentials (StartSecure): the join token, and the files a
	// joined computer has.
	Token, Creds, CA string
}

// Start starts a hub that stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	dir := t.TempDir()
	return start(t, hub.Options{Listen: "127.0.0.1:0", Store: dir})
}

func start(t testing.TB, o hub.Options) *Server {
	t.Helper()
	s, err := hub.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := &Server{Server: s, Dir: o.Store, addr: s.Addr().(*net.TCPAddr).String(), opts: o}
	srv.opts.Listen = srv.addr
	t.Cleanup(func() { srv.Shutdown() })
	return srv
}

// StartSecure starts a hub that takes only its own credentials, over TLS,
// as conch-hub does beyond loopback; Creds and CA are a joined computer's
// files.
func StartSecure(t testing.TB) *Server {
	t.Helper()
	dir := t.TempDir()
	a, err := hub.LoadAuth(filepath.Join(dir, "auth"), dir, hub.Hosts("127.0.0.1", nil))
	if err != nil {
		t.Fatal(err)
	}
	srv := start(t, hub.Options{Listen: "127.0.0.1:0", Store: dir, Auth: a})
	srv.Token = a.Token()
	srv.Creds, srv.CA = writeJoin(t, srv.Token)
	return srv
}

// writeJoin writes a token's seed and CA as conch backend join does.
func writeJoin(t testing.TB, token string) (creds, ca string) {
	t.Helper()
	seed, caPEM, err := join.ParseToken(token)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	creds, ca = filepath.Join(dir, "hub.creds"), filepath.Join(dir, "hub-ca.pem")
	if err := os.WriteFile(creds, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ca, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return creds, ca
}

// Restart stops the server and starts it again on the same port and
// folder, as a person restarting it would.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.Kill()
	s.Start(t)
}

// Kill stops the server at once, as a node that is lost.
func (s *Server) Kill() {
	s.Shutdown()
	s.WaitForShutdown()
}

// Start starts a killed server again, on its port and folder.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	n, err := hub.Start(s.opts)
	if err != nil {
		t.Fatal(err)
	}
	s.Server = n
}

// Cluster starts n nodes of one cluster on 127.0.0.1, each its own port,
// routes and folder, with one set of credentials and one CA: URL names
// them all (comma-separated), as a [backend] url does.
func Cluster(t testing.TB, n int) (nodes []*Server, url string) {
	t.Helper()
	auth := filepath.Join(t.TempDir(), "auth")
	ports := freePorts(t, 2*n)
	var routes []string
	for i := 0; i < n; i++ {
		routes = append(routes, fmt.Sprintf("127.0.0.1:%d", ports[n+i]))
	}
	type started struct {
		s   *hub.Server
		o   hub.Options
		err error
	}
	ch := make(chan started, n)
	for i := 0; i < n; i++ {
		dir := t.TempDir()
		a, err := hub.LoadAuth(auth, dir, hub.Hosts("127.0.0.1", nil))
		if err != nil {
			t.Fatal(err)
		}
		o := hub.Options{
			Listen: fmt.Sprintf("127.0.0.1:%d", ports[i]), Store: dir, Auth: a, Name: fmt.Sprintf("node%d", i+1),
			Cluster: &hub.Cluster{Name: "conch", Listen: routes[i], Routes: routes},
		}
		go func() { s, err := hub.Start(o); ch <- started{s, o, err} }() // a node waits for the others
	}
	for i := 0; i < n; i++ {
		st := <-ch
		if st.err != nil {
			t.Fatal(st.err)
		}
		srv := &Server{Server: st.s, Dir: st.o.Store, addr: st.o.Listen, opts: st.o}
		t.Cleanup(func() { srv.Shutdown() })
		nodes = append(nodes, srv)
	}
	// JetStream answers once the nodes have a leader for the cluster.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		current := true
		for _, s := range nodes {
			current = current && s.JetStreamIsCurrent()
		}
		if current {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cluster's JetStream has no leader after 30 s")
		}
	}
	token := nodes[0].opts.Auth.Token()
	creds, ca := writeJoin(t, token)
	for i, s := range nodes {
		s.Token, s.Creds, s.CA = token, creds, ca
		if i > 0 {
			url += ","
		}
		url += s.URL
	}
	return nodes, url
}

// freePorts are n ports free on 127.0.0.1 now.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ls []net.Listener
	var ports []int
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}
